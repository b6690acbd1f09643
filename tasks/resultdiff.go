package tasks

import (
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// RenderDiff renders the diff a module following Ansible's protocol
// returns (its result's "diff": one dict or a list of them) as Ansible's
// default output shows it: the binary and size notes, before/after as a
// unified diff of three lines of context (a dict before or after written
// as indented JSON first), then any prepared text.
func RenderDiff(v any) string {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var b strings.Builder
	for _, x := range list {
		d, ok := x.(map[string]any)
		if !ok {
			continue
		}
		if _, ok := d["dst_binary"]; ok {
			b.WriteString("diff skipped: destination file appears to be binary\n")
		}
		if _, ok := d["src_binary"]; ok {
			b.WriteString("diff skipped: source file appears to be binary\n")
		}
		if n, ok := d["dst_larger"]; ok {
			fmt.Fprintf(&b, "diff skipped: destination file size is greater than %v\n", n)
		}
		if n, ok := d["src_larger"]; ok {
			fmt.Fprintf(&b, "diff skipped: source file size is greater than %v\n", n)
		}
		before, hasBefore := d["before"]
		after, hasAfter := d["after"]
		if hasBefore && hasAfter {
			bh, ah := "before", "after"
			if h, ok := d["before_header"]; ok {
				bh = "before: " + fmt.Sprint(h)
			}
			if h, ok := d["after_header"]; ok {
				ah = "after: " + fmt.Sprint(h)
			}
			text, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
				A: DiffLines(diffText(before)), B: DiffLines(diffText(after)), FromFile: bh, ToFile: ah, Context: 3})
			if text != "" {
				b.WriteString(text + "\n")
			}
		}
		if p, ok := d["prepared"].(string); ok {
			b.WriteString(p)
		}
	}
	return b.String()
}

// diffText is a diff side as text: a dict as json.dumps(sort_keys=True,
// indent=4, separators=(',', ': ')) and a newline, None as nothing.
func diffText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case map[string]any:
		s, err := pyfmt.JSON(x, pyfmt.JSONOptions{Pretty: true, Indent: 4})
		if err == nil {
			return s + "\n"
		}
	}
	return fmt.Sprint(v)
}

// DiffLines is the lines of a diff side, each with its newline, the
// last followed by "\\ No newline at end of file" when it has none (as
// Ansible's callback marks it).
func DiffLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s+"\n\\ No newline at end of file\n")
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
