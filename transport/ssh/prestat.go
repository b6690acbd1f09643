package ssh

import (
	"bytes"
	"strings"

	"github.com/tender-sh/tender/transport"
)

// One stat for the scripts of a write (transport.Cmd.Stat).
//
// Where two or more frames in a row of a RunAhead's write each name the
// path their script reads first, the shell runs one stat program for all
// those paths before the first of them:
//
//	__tender_sf="
//	$(stat -c '%n<tab>FORMAT' -- 'P1' 'P2' ... 2>/dev/null)
//	"
//
// (preceded by [ "$__tender_x" != 0 ] || where the run does not begin
// the write), and each of those frames is written between
//
//	__tender_sp='P'
//	<the frame, gated or not>
//	__tender_sfk 'UNCHANGED'
//
// __tender_sfk (see setupScript) empties __tender_sf unless the frame
// exited 0 and printed its Unchanged line among the lines the shell read
// (transport.Cmd.Lines), so a script after one that changed something,
// or failed, or was skipped, reads its path itself. After the last frame
// of the run both variables are emptied: no other frame finds them set.

// prestatPath is the path cmd's frame may be handed a line for: cmd
// says what it reads first and how it says it changed nothing, runs as
// a subshell of the shell (not under become, which does not see the
// shell's variables), has its lines read by the shell, and the path is
// absolute with no tab or newline (stat's lines are split on both).
func prestatPath(cmd transport.Cmd, w transport.Wrapped) (string, bool) {
	p := cmd.Stat
	if p == "" || cmd.Unchanged == "" || strings.Contains(cmd.Unchanged, "\n") || w.Inline == "" ||
		!cmd.Lines || cmd.LinesUntil != "" || !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\t\n") {
		return "", false
	}
	return p, true
}

// prestatStep is what a frame of a RunAhead's write gets: path, when
// it is in a run of at least two frames that each name one; start, the
// stat statement, before the first of such a run; last, after the last
// of it.
type prestatStep struct {
	path  string
	start []byte
	last  bool
}

// prestatPlan is the steps of the frames of a RunAhead, cmd then the
// queued scripts of next, or nil when no two frames in a row name a
// path. A run that does not begin the write reads its paths only when
// the frame before it exited 0 (else its frames are skipped anyway).
func prestatPlan(cmd transport.Cmd, w transport.Wrapped, next []transport.Cmd, queued []aheadFrame) []prestatStep {
	steps := make([]prestatStep, 1+len(queued))
	steps[0].path, _ = prestatPath(cmd, w)
	for i, q := range queued {
		steps[i+1].path, _ = prestatPath(next[i], q.w)
	}
	found := false
	for s := 0; s < len(steps); {
		e := s
		for e < len(steps) && steps[e].path != "" {
			e++
		}
		switch {
		case e-s >= 2:
			found = true
			paths := make([]string, 0, e-s)
			for k := s; k < e; k++ {
				paths = append(paths, steps[k].path)
			}
			steps[s].start = prestatText(paths, s > 0)
			steps[e-1].last = true
		case e-s == 1:
			steps[s].path = ""
		}
		s = e + 1
	}
	if !found {
		return nil
	}
	return steps
}

// prestatText is the statement that reads paths' attributes into
// __tender_sf, each path once; gated: only when the frame before exited
// 0.
func prestatText(paths []string, gated bool) []byte {
	var b bytes.Buffer
	if gated {
		b.WriteString("[ \"$__tender_x\" != 0 ] || ")
	}
	b.WriteString("__tender_sf=\"\n$(stat -c '%n\t" + transport.StatFormat + "' --")
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			b.WriteString(" " + transport.Quote(p))
		}
	}
	b.WriteString(" 2>/dev/null)\n\"\n")
	return b.Bytes()
}

// prestatFrame is frame after the statements that read the paths (at
// the start of a run) and hand it its path, and before the one that
// checks its answer; the last of a run also empties both variables.
func prestatFrame(frame []byte, st prestatStep, unchanged string) []byte {
	out := make([]byte, 0, len(st.start)+len(frame)+len(st.path)+len(unchanged)+64)
	out = append(out, st.start...)
	out = append(out, "__tender_sp="+transport.Quote(st.path)+"\n"...)
	out = append(out, frame...)
	out = append(out, "__tender_sfk "+transport.Quote(unchanged)+"\n"...)
	if st.last {
		out = append(out, "__tender_sf= __tender_sp=\n"...)
	}
	return out
}
