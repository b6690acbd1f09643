package shared

import (
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// UnifiedDiff renders before → after as one unified-diff hunk spanning
// the lines between their common head and tail (with up to three lines of
// context), labelled as Ansible labels its diffs.
func UnifiedDiff(name, before, after string) string {
	if before == after {
		return ""
	}
	a, b := tasks.DiffLines(before), tasks.DiffLines(after)
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ctxHead, ctxTail := min(head, 3), min(tail, 3)
	start := head - ctxHead
	var s strings.Builder
	fmt.Fprintf(&s, "--- before: %s\n+++ after: %s\n", name, name)
	na := len(a) - head - tail + ctxHead + ctxTail
	nb := len(b) - head - tail + ctxHead + ctxTail
	fmt.Fprintf(&s, "@@ -%s +%s @@\n", hunkRange(start, na), hunkRange(start, nb))
	for _, l := range a[start:head] {
		s.WriteString(" " + l)
	}
	for _, l := range a[head : len(a)-tail] {
		s.WriteString("-" + l)
	}
	for _, l := range b[head : len(b)-tail] {
		s.WriteString("+" + l)
	}
	for _, l := range a[len(a)-tail : len(a)-tail+ctxTail] {
		s.WriteString(" " + l)
	}
	return s.String()
}

// hunkRange is a unified diff range: an empty side names the line before.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
