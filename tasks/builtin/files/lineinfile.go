package files

import (
	"bytes"
	"context"
	"fmt"
	"regexp"

	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// lineinfileModule makes sure one line is in a file (or is not), as
// Ansible's lineinfile: found by regexp, search_string or the line itself,
// replaced in place or inserted after/before a matching line, at the
// beginning or at the end. One round trip reads the file; a second writes
// it back only when it changes (see textfile.go).
type lineinfileModule struct{}

var _ tasks.Module = (*lineinfileModule)(nil)

var lineinfileArgs = &tasks.Spec{
	Module: "lineinfile",
	Params: append([]tasks.Param{
		shared.EditPath,
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "regexp", Aliases: []string{"regex"}},
		{Name: "search_string"},
		{Name: "line", Aliases: []string{"value"}},
		{Name: "insertafter"},
		{Name: "insertbefore"},
		{Name: "backrefs", Kind: tasks.Bool, Default: false},
		{Name: "create", Kind: tasks.Bool, Default: false},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "firstmatch", Kind: tasks.Bool, Default: false},
		{Name: "validate"},
	}, shared.AttrParams...),
	MutuallyExclusive: [][]string{{"insertbefore", "insertafter"}, {"regexp", "search_string"}, {"backrefs", "search_string"}},
}

// lineEdit is one lineinfile task's decoded arguments.
type lineEdit struct {
	regexp, search         *string
	line                   []byte
	insertafter, insertbef *string
	backrefs, firstmatch   bool
	re, ins                *regexp.Regexp
	tpl                    *pyre.Template
}

// Run edits the file.
func (lineinfileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := lineinfileArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	failed := shared.FailWith
	fa, err := shared.AttrsOf(a)
	if err != nil {
		return failed(err.Error(), nil)
	}
	opt := func(k string) *string {
		if !a.Has(k) {
			return nil
		}
		s := a.Str(k)
		return &s
	}
	e := lineEdit{regexp: opt("regexp"), search: opt("search_string"), insertafter: opt("insertafter"),
		insertbef: opt("insertbefore"), backrefs: a.Bool("backrefs"), firstmatch: a.Bool("firstmatch")}
	var res tasks.Result
	if (e.regexp != nil && *e.regexp == "") || (e.search != nil && *e.search == "") {
		what, hint := "search string", ""
		if e.regexp != nil {
			what, hint = "regular expression", " If this is desired, use '^' to match every line in the file and avoid this warning."
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("The %s is an empty string, which will match every line in the file. "+
			"This may have unintended consequences, such as replacing the last line in the file rather than appending.%s", what, hint))
	}
	present := a.Str("state") == "present"
	line := opt("line")
	if present {
		if e.backrefs && e.regexp == nil {
			return failed("regexp is required with backrefs=true", nil)
		}
		if line == nil {
			return failed("line is required with state=present", nil)
		}
		if e.insertafter == nil && e.insertbef == nil {
			eof := "EOF"
			e.insertafter = &eof
		}
	} else if e.regexp == nil && e.search == nil && line == nil {
		return failed("one of line, search_string, or regexp is required with state=absent", nil)
	}
	if line != nil {
		e.line = []byte(*line)
	}
	if e.regexp != nil {
		if e.re, err = pyre.Compile(*e.regexp, pyre.Options{OneLine: true}); err != nil {
			return failed(err.Error(), nil)
		}
		if e.backrefs && present {
			if e.tpl, err = pyre.ParseTemplate(*line, e.re); err != nil {
				return failed(err.Error(), nil)
			}
		}
	}
	if present {
		ins := e.insertafter
		if ins == nil || *ins == "BOF" || *ins == "EOF" {
			ins = e.insertbef
			if ins != nil && *ins == "BOF" {
				ins = nil
			}
		}
		if ins != nil {
			if e.ins, err = pyre.Compile(*ins, pyre.Options{OneLine: true}); err != nil {
				return failed(err.Error(), nil)
			}
		}
	}

	p := a.Str("path")
	f, fail, err := shared.ReadText(ctx, env, p, fa)
	if err != nil {
		return tasks.Result{}, err
	}
	if fail != nil {
		return *fail, nil
	}
	w := shared.WriteOpts{Attrs: fa, Backup: a.Bool("backup"), Validate: a.Str("validate"), Mkdirs: true}
	if !present {
		if !f.Exists {
			res.Msg = "file not present"
			res.Data = map[string]any{}
			return res, nil
		}
		after, found := e.absent(f.Content)
		return shared.FinishEdit(ctx, env, res, f, w, after, found > 0, fmt.Sprintf("%d line(s) removed", found), map[string]any{"found": found}, "backup")
	}
	if !f.Exists && !a.Bool("create") {
		return failed(fmt.Sprintf("Destination %s does not exist !", p), map[string]any{"rc": 257})
	}
	after, msg := e.present(f.Content)
	return shared.FinishEdit(ctx, env, res, f, w, after, msg != "", msg, map[string]any{}, "backup")
}

// splitLines splits b after every "\n", as Python's readlines on a file
// opened in binary mode.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

func trimEOL(l []byte) []byte { return bytes.TrimRight(l, "\r\n") }

// present puts the line in content as Ansible's lineinfile does and says
// what it did ("" when nothing changed).
func (e lineEdit) present(content []byte) ([]byte, string) {
	ls := splitLines(content)
	idx, ins := -1, -1
	var match []int
	matched := false
	if e.re != nil {
		for i, l := range ls {
			if m := e.re.FindSubmatchIndex(l); m != nil {
				idx, match, matched = i, m, true
				if e.firstmatch {
					break
				}
			}
		}
	}
	if e.search != nil {
		for i, l := range ls {
			if bytes.Contains(l, []byte(*e.search)) {
				idx, matched = i, true
				if e.firstmatch {
					break
				}
			}
		}
	}
	after := e.insertafter != nil
	if !matched {
		for i, l := range ls {
			if bytes.Equal(e.line, trimEOL(l)) {
				idx = i
			} else if e.ins != nil && e.ins.Match(l) {
				if after {
					ins = i + 1
				} else {
					ins = i
				}
				if e.firstmatch {
					break
				}
			}
		}
	}
	nl := append(append([]byte(nil), e.line...), '\n')
	insert := func(at int) ([]byte, string) {
		ls = append(ls[:at], append([][]byte{nl}, ls[at:]...)...)
		return bytes.Join(ls, nil), "line added"
	}
	endsEOL := func() bool {
		last := ls[len(ls)-1]
		return last[len(last)-1] == '\n' || last[len(last)-1] == '\r'
	}
	isEOF := after && *e.insertafter == "EOF"
	switch {
	case idx != -1:
		newLine := e.line
		if e.tpl != nil && match != nil {
			newLine = e.tpl.Expand(nil, ls[idx], match)
		}
		if !bytes.HasSuffix(newLine, []byte("\n")) {
			newLine = append(append([]byte(nil), newLine...), '\n')
		}
		if !bytes.Equal(ls[idx], newLine) {
			ls[idx] = newLine
			return bytes.Join(ls, nil), "line replaced"
		}
	case e.backrefs:
		// without a match there is nothing to expand the backrefs from
	case (after && *e.insertafter == "BOF") || (!after && *e.insertbef == "BOF"):
		return insert(0)
	case isEOF || ins == -1:
		if len(ls) > 0 && !endsEOL() {
			ls = append(ls, []byte("\n"))
		}
		return insert(len(ls))
	case after:
		if len(ls) == ins {
			if !bytes.Equal(trimEOL(ls[ins-1]), e.line) {
				return insert(ins)
			}
		} else if !bytes.Equal(e.line, trimEOL(ls[ins])) {
			return insert(ins)
		}
	default:
		return insert(ins)
	}
	return content, ""
}

// absent drops every line that matches and returns how many it dropped.
func (e lineEdit) absent(content []byte) ([]byte, int) {
	var keep [][]byte
	found := 0
	for _, l := range splitLines(content) {
		var m bool
		switch {
		case e.re != nil:
			m = e.re.Match(l)
		case e.search != nil:
			m = bytes.Contains(l, []byte(*e.search))
		default:
			m = bytes.Equal(e.line, trimEOL(l))
		}
		if m {
			found++
		} else {
			keep = append(keep, l)
		}
	}
	if found == 0 {
		return content, 0
	}
	return bytes.Join(keep, nil), found
}

func (lineinfileModule) Spec() *tasks.Spec { return lineinfileArgs }
