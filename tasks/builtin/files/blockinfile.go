package files

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
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

// Run puts the block in place (or removes it).
func (blockinfileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := blockinfileArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	failed := shared.FailWith
	fa, err := shared.AttrsOf(a)
	if err != nil {
		return failed(err.Error(), nil)
	}
	after, before := a.Str("insertafter"), a.Str("insertbefore")
	hasAfter, hasBefore := a.Has("insertafter"), a.Has("insertbefore")
	if !hasAfter && !hasBefore {
		after, hasAfter = "EOF", true
	}
	var insre *regexp.Regexp
	whole := false
	pattern := ""
	if hasAfter && after != "EOF" {
		pattern = after
	} else if hasBefore && before != "BOF" {
		pattern = before
	}
	if pattern != "" {
		whole = pyre.Multiline(pattern)
		if insre, err = pyre.Compile(pattern, pyre.Options{OneLine: !whole}); err != nil {
			return failed(err.Error(), nil)
		}
	}

	p := a.Str("path")
	var msg string
	f, fail, err := shared.ReadText(ctx, env, p, fa)
	if err != nil {
		return tasks.Result{}, err
	}
	present := a.Str("state") == "present"
	switch {
	case fail != nil:
		return *fail, nil
	case !f.Exists && !a.Bool("create"):
		return failed(fmt.Sprintf("Path %s does not exist !", p), map[string]any{"rc": 257})
	case !f.Exists && !present:
		return tasks.Result{Msg: fmt.Sprintf("File %s not present", p), Data: map[string]any{}}, nil
	}

	marker := a.Str("marker")
	m0 := []byte(strings.ReplaceAll(marker, "{mark}", a.Str("marker_begin")) + "\n")
	m1 := []byte(strings.ReplaceAll(marker, "{mark}", a.Str("marker_end")) + "\n")
	var blockLines [][]byte
	if block := a.Str("block"); present && block != "" {
		if !strings.HasSuffix(block, "\n") {
			block += "\n"
		}
		blockLines = append(append([][]byte{m0}, splitLines([]byte(block))...), m1)
	}
	ls := splitLines(f.Content)
	n0, n1 := -1, -1
	for i, l := range ls {
		if bytes.Equal(l, m0) {
			n0 = i
		}
		if bytes.Equal(l, m1) {
			n1 = i
		}
	}
	switch {
	case n0 < 0 || n1 < 0:
		n0 = -1
		switch {
		case insre != nil && whole:
			if m := insre.FindIndex(f.Content); m != nil {
				if hasAfter {
					n0 = bytes.Count(f.Content[:m[1]], []byte("\n"))
				} else {
					n0 = bytes.Count(f.Content[:m[0]], []byte("\n"))
				}
			}
		case insre != nil:
			for i, l := range ls {
				if insre.Match(l) {
					n0 = i
				}
			}
		case hasBefore:
			n0 = 0
		default:
			n0 = len(ls)
		}
		if insre != nil {
			if n0 < 0 {
				n0 = len(ls)
			} else if hasAfter {
				n0++
			}
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
	ls = append(ls[:n0], append(blockLines, ls[n0:]...)...)
	result := bytes.Join(ls, nil)

	changed := true
	switch {
	case f.Exists && bytes.Equal(f.Content, result):
		msg, changed = "", false
	case !f.Exists:
		msg = "File created"
	case blockLines == nil:
		msg = "Block removed"
	default:
		msg = "Block inserted"
	}
	w := shared.WriteOpts{Attrs: fa, Backup: a.Bool("backup"), Validate: a.Str("validate"), Mkdirs: true}
	res := tasks.Result{}
	return shared.FinishEdit(ctx, env, res, f, w, result, changed, msg, map[string]any{}, "backup_file")
}

func (blockinfileModule) Spec() *tasks.Spec { return blockinfileArgs }
