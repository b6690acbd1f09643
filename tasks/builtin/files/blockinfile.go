package files

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// blockinfileModule keeps a block of lines between two marker lines in a
// file, as Ansible's blockinfile: the block replaces the one between the
// markers, or is inserted after/before the last line matching a regular
// expression, at the beginning or at the end. One round trip reads the
// file, a second writes it only when it changes.
type blockinfileModule struct{}

var _ tasks.Module = (*blockinfileModule)(nil)

var blockinfileArgs = &tasks.Spec{
	Module: "blockinfile",
	Params: append([]tasks.Param{
		shared.EditPath,
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "marker", Default: "# {mark} ANSIBLE MANAGED BLOCK"},
		{Name: "block", Default: "", Aliases: []string{"content"}},
		{Name: "insertafter"},
		{Name: "insertbefore"},
		{Name: "create", Kind: tasks.Bool, Default: false},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "validate"},
		{Name: "marker_begin", Default: "BEGIN"},
		{Name: "marker_end", Default: "END"},
	}, shared.AttrParams...),
	MutuallyExclusive: [][]string{{"insertbefore", "insertafter"}},
}

// blockEdit is one blockinfile task: its two marker lines, the block
// between them (nil to remove it) and where a new block goes.
type blockEdit struct {
	m0, m1              []byte
	blockLines          [][]byte
	insre               *pyre.Regexp // insertafter/insertbefore's bytes pattern, nil for EOF/BOF
	whole               bool         // insre is matched against the whole text (a multiline pattern)
	hasAfter, hasBefore bool
}

// Run puts the block in place (or removes it): the edit decoded, the file
// read, the new text planned, and the file written when it changes.
func (blockinfileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := blockinfileArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	fa, err := shared.AttrsOf(a, args)
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	e, err := decodeBlockEdit(a)
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	p := a.Str("path")
	f, fail, err := shared.ReadText(ctx, env, p, fa)
	if err != nil {
		return tasks.Result{}, err
	}
	switch {
	case fail != nil:
		return *fail, nil
	case !f.Exists && !a.Bool("create"):
		return shared.FailWith(fmt.Sprintf("Path %s does not exist !", p), map[string]any{"rc": 257})
	case !f.Exists && a.Str("state") != "present":
		return tasks.Result{Msg: fmt.Sprintf("File %s not present", p), Data: map[string]any{}}, nil
	}
	result, err := e.apply(f.Content)
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	changed, msg := true, ""
	switch {
	case f.Exists && bytes.Equal(f.Content, result):
		changed = false
	case !f.Exists:
		msg = "File created"
	case e.blockLines == nil:
		msg = "Block removed"
	default:
		msg = "Block inserted"
	}
	w := shared.WriteOpts{Attrs: fa, Backup: a.Bool("backup"), Validate: a.Str("validate"), Mkdirs: true}
	return shared.FinishEdit(ctx, env, tasks.Result{}, f, w, result, changed, msg, map[string]any{}, "backup_file")
}

// decodeBlockEdit builds the edit the arguments ask for; a pattern that
// does not compile is an error.
func decodeBlockEdit(a tasks.Values) (blockEdit, error) {
	var e blockEdit
	after, before := a.Str("insertafter"), a.Str("insertbefore")
	e.hasAfter, e.hasBefore = a.Has("insertafter"), a.Has("insertbefore")
	if !e.hasAfter && !e.hasBefore {
		after, e.hasAfter = "EOF", true
	}
	pattern := ""
	if e.hasAfter && after != "EOF" {
		pattern = after
	} else if e.hasBefore && before != "BOF" {
		pattern = before
	}
	if pattern != "" {
		var err error
		if e.insre, err = pyre.Compile(pattern, pyre.Options{Bytes: true}); err != nil {
			return e, err
		}
		e.whole = e.insre.Multiline()
	}
	marker := a.Str("marker")
	e.m0 = []byte(strings.ReplaceAll(marker, "{mark}", a.Str("marker_begin")) + "\n")
	e.m1 = []byte(strings.ReplaceAll(marker, "{mark}", a.Str("marker_end")) + "\n")
	if block := a.Str("block"); a.Str("state") == "present" && block != "" {
		if !strings.HasSuffix(block, "\n") {
			block += "\n"
		}
		e.blockLines = append(append([][]byte{e.m0}, splitLines([]byte(block))...), e.m1)
	}
	return e, nil
}

// apply returns content with the block between its markers in place of
// the old one, or, when there was none, where insertafter/insertbefore
// say; without a block, the old one removed. Its error is a search's
// past its bounds.
func (e blockEdit) apply(content []byte) ([]byte, error) {
	ls := splitLines(content)
	n0, n1 := -1, -1
	for i, l := range ls {
		if bytes.Equal(l, e.m0) {
			n0 = i
		}
		if bytes.Equal(l, e.m1) {
			n1 = i
		}
	}
	switch {
	case n0 < 0 || n1 < 0:
		var err error
		if n0, err = e.insertAt(content, ls); err != nil {
			return nil, err
		}
	case n0 < n1:
		ls = append(ls[:n0], ls[n1+1:]...)
	default:
		ls = append(ls[:n1], ls[n0+1:]...)
		n0 = n1
	}
	if n0 > 0 && !bytes.HasSuffix(ls[n0-1], []byte("\n")) {
		ls[n0-1] = append(append([]byte(nil), ls[n0-1]...), '\n')
	}
	ls = append(ls[:n0], append(e.blockLines, ls[n0:]...)...)
	return bytes.Join(ls, nil), nil
}

// insertAt is the line a new block goes before: after (or before) the
// last line matching the pattern (the first match of a multiline one),
// at the end when nothing matches, or at the start or end for BOF/EOF.
func (e blockEdit) insertAt(content []byte, ls [][]byte) (int, error) {
	n := -1
	switch {
	case e.insre != nil && e.whole:
		m, err := e.insre.SearchBytes(content)
		if err != nil {
			return 0, err
		}
		if m != nil {
			if e.hasAfter {
				n = bytes.Count(content[:m[1]], []byte("\n"))
			} else {
				n = bytes.Count(content[:m[0]], []byte("\n"))
			}
		}
	case e.insre != nil:
		for i, l := range ls {
			m, err := e.insre.SearchBytes(l)
			if err != nil {
				return 0, err
			}
			if m != nil {
				n = i
			}
		}
	case e.hasBefore:
		return 0, nil
	default:
		return len(ls), nil
	}
	if n < 0 {
		return len(ls), nil
	}
	if e.hasAfter {
		n++
	}
	return n, nil
}

func (blockinfileModule) Spec() *tasks.Spec { return blockinfileArgs }
