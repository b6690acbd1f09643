package ssh

import (
	"bytes"
	"strings"

	"github.com/tender-sh/tender/transport"
)

// One stat (or getent) for the scripts of a write (transport.Cmd.Stat,
// Cmd.Passwd, Cmd.Group).
//
// Where two or more frames in a row of a RunAhead's write each name the
// path their script reads first, the shell runs one stat program for all
// those paths before the first of them (a run of one kind: a frame that
// names a user ends a run of paths):
//
//	__tender_sf="
//	$(stat -c '%n<tab>FORMAT' -- 'P1' 'P2' ... 2>/dev/null)
//	"
//
// and where they each name the user whose passwd entry their script
// reads first (or the group whose group entry), one getent for all those
// names:
//
//	__tender_sf="
//	$(getent passwd -- 'U1' 'U2' ... 2>/dev/null)
//	"
//
// (getent group for groups), each statement preceded by
// [ "$__tender_x" != 0 ] || where the run does not begin the write; each of those frames is written between
//
//	__tender_sp='P' (or 'U', 'G')
//	<the frame, gated or not>
//	__tender_sfk 'UNCHANGED'
//
// __tender_sfk (see setupScript) empties __tender_sf unless the frame
// exited 0 and printed its Unchanged line among the lines the shell read
// (transport.Cmd.Lines), so a script after one that changed something,
// or failed, or was skipped, reads its own probe. After the last frame
// of the run both variables are emptied: no other frame finds them set.

// A probe is what a frame's script reads first: the attributes of a
// path (transport.Cmd.Stat), a user's passwd entry (Cmd.Passwd) or a
// group's entry (Cmd.Group).
type probe struct {
	kind probeKind
	key  string
}

// probeKind says which program reads a run's probes: 0 for none.
type probeKind byte

const (
	probeStat probeKind = iota + 1
	probePasswd
	probeGroup
)

// probeOf is what cmd's frame may be handed a line for: cmd says what
// it reads first and how it says it changed nothing, runs as a subshell
// of the shell (not under become, which does not see the shell's
// variables), has its lines read by the shell (all of them, or those up
// to its LinesUntil line: a frame that prints that line is not taken for
// unchanged, as one that prints more than the shell reads), and names
// one probe. A
// path is absolute with no tab or newline (stat's lines are split on
// both); a user or group name has no colon or newline (getent's lines
// begin NAME:) and does not begin with a dash.
func probeOf(cmd transport.Cmd, w transport.Wrapped) (probe, bool) {
	if cmd.Unchanged == "" || strings.Contains(cmd.Unchanged, "\n") || w.Inline == "" ||
		(!cmd.Lines && cmd.LinesUntil == "") {
		return probe{}, false
	}
	var pr probe
	for _, c := range [...]probe{{probeStat, cmd.Stat}, {probePasswd, cmd.Passwd}, {probeGroup, cmd.Group}} {
		if c.key == "" {
			continue
		}
		if pr.kind != 0 {
			return probe{}, false
		}
		pr = c
	}
	if pr.kind == 0 {
		return probe{}, false
	}
	if pr.kind == probeStat {
		if !strings.HasPrefix(pr.key, "/") || strings.ContainsAny(pr.key, "\t\n") {
			return probe{}, false
		}
	} else if strings.HasPrefix(pr.key, "-") || strings.ContainsAny(pr.key, ":\n") {
		return probe{}, false
	}
	return pr, true
}

// prestatStep is what a frame of a RunAhead's write gets: its probe,
// when it is in a run of at least two frames that each name one of the
// same kind; start, the statement that reads them all, before the first
// of such a run; last, after the last of it.
type prestatStep struct {
	probe probe
	start []byte
	last  bool
}

// shared reports whether the step's frame is handed a line.
func (st prestatStep) shared() bool { return st.probe.kind != 0 }

// prestatPlan is the steps of the frames of a RunAhead, cmd then the
// queued scripts of next, or nil when no two frames in a row name a
// probe of one kind. A run that does not begin the write reads its
// probes only when the frame before it exited 0 (else its frames are
// skipped anyway).
func prestatPlan(cmd transport.Cmd, w transport.Wrapped, next []transport.Cmd, queued []aheadFrame) []prestatStep {
	steps := make([]prestatStep, 1+len(queued))
	steps[0].probe, _ = probeOf(cmd, w)
	for i, q := range queued {
		steps[i+1].probe, _ = probeOf(next[i], q.w)
	}
	found := false
	for s := 0; s < len(steps); {
		kind := steps[s].probe.kind
		if kind == 0 {
			s++
			continue
		}
		e := s
		for e < len(steps) && steps[e].probe.kind == kind {
			e++
		}
		if e-s >= 2 {
			found = true
			keys := make([]string, 0, e-s)
			for k := s; k < e; k++ {
				keys = append(keys, steps[k].probe.key)
			}
			steps[s].start = prestatText(kind, keys, s > 0)
			steps[e-1].last = true
		} else {
			steps[s].probe = probe{}
		}
		s = e
	}
	if !found {
		return nil
	}
	return steps
}

// prestatText is the statement that reads the probes of keys (each
// once) into __tender_sf: stat's "PATH<tab>ATTRIBUTES" lines or
// getent's passwd entries; gated: only when the frame before exited 0.
func prestatText(kind probeKind, keys []string, gated bool) []byte {
	var b bytes.Buffer
	if gated {
		b.WriteString("[ \"$__tender_x\" != 0 ] || ")
	}
	switch kind {
	case probePasswd:
		b.WriteString("__tender_sf=\"\n$(getent passwd --")
	case probeGroup:
		b.WriteString("__tender_sf=\"\n$(getent group --")
	default:
		b.WriteString("__tender_sf=\"\n$(stat -c '%n\t" + transport.StatFormat + "' --")
	}
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			b.WriteString(" " + transport.Quote(k))
		}
	}
	b.WriteString(" 2>/dev/null)\n\"\n")
	return b.Bytes()
}

// prestatFrame is frame after the statements that read the probes (at
// the start of a run) and hand it its key, and before the one that
// checks its answer; the last of a run also empties both variables.
func prestatFrame(frame []byte, st prestatStep, unchanged string) []byte {
	out := make([]byte, 0, len(st.start)+len(frame)+len(st.probe.key)+len(unchanged)+64)
	out = append(out, st.start...)
	out = append(out, "__tender_sp="+transport.Quote(st.probe.key)+"\n"...)
	out = append(out, frame...)
	out = append(out, "__tender_sfk "+transport.Quote(unchanged)+"\n"...)
	if st.last {
		out = append(out, "__tender_sf= __tender_sp=\n"...)
	}
	return out
}
