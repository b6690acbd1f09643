package files

import (
	"bytes"
	"context"
	"fmt"
	pathpkg "path"
	"strings"

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
	re, ins                *pyre.Regexp // bytes patterns, as Ansible compiles to_bytes(regexp)
	tpl                    *pyre.Template
	remove                 bool     // state=absent
	warnings               []string // the warnings of a result that is not a failure
	lineArg                *string  // line as given (nil when not), for compile
}

// Run edits the file: the edit decoded, the file read, the line put in
// place (or the matching lines removed), and the file written when it
// changes.
func (lineinfileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, fa, e, stop, err := editStart(args, lineinfileArgs, decodeLineEdit)
	if err != nil {
		return shared.EndWith(nil, err)
	}
	// As Ansible: a directory is refused first, then the arguments that
	// do not go together, then a file that is missing, and only then a
	// pattern that does not compile.
	p := a.Str("path")
	w := shared.WriteOpts{Attrs: fa, Backup: a.Bool("backup"), Validate: a.Str("validate"), Mkdirs: true}
	res := tasks.Result{Warnings: e.warnings}
	var f *shared.TextFile
	var fail *tasks.Result
	if want, ok := e.hostDecides(env, stop); ok {
		var noop bool
		f, noop, fail, err = shared.ReadTextUnless(ctx, env, p, fa, want)
		if err == nil && fail == nil && noop {
			return shared.FinishEdit(ctx, env, res, f, w, nil, false, "", map[string]any{}, "backup")
		}
	} else {
		f, fail, err = shared.ReadText(ctx, env, p, fa)
	}
	if err != nil || fail != nil {
		return shared.EndWith(fail, err)
	}
	if stop != nil {
		return shared.EndWith(stop, nil)
	}
	if e.remove {
		if !f.Exists {
			res.Msg, res.Data = "file not present", map[string]any{}
			return res, nil
		}
		if stop := e.compile(e.lineArg); stop != nil {
			return shared.EndWith(stop, nil)
		}
		after, found, err := e.absent(f.Content)
		if err != nil {
			return shared.FailWith(err.Error(), nil)
		}
		return shared.FinishEdit(ctx, env, res, f, w, after, found > 0, fmt.Sprintf("%d line(s) removed", found), map[string]any{"found": found}, "backup")
	}
	if !f.Exists && !a.Bool("create") {
		return shared.FailWith(fmt.Sprintf("Destination %s does not exist !", p), map[string]any{"rc": 257})
	}
	if !f.Exists && !env.Check {
		// As Ansible's: create makes the missing parent directories
		// before it works out the edit, which may then write nothing (a
		// backrefs regexp that matches nothing).
		if fail, err := makeParents(ctx, env, p); err != nil || fail != nil {
			return shared.EndWith(fail, err)
		}
	}
	if stop := e.compile(e.lineArg); stop != nil {
		return shared.EndWith(stop, nil)
	}
	after, msg, err := e.present(f.Content)
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	return shared.FinishEdit(ctx, env, res, f, w, after, msg != "", msg, map[string]any{}, "backup")
}

// hostDecides says whether the host can tell, without sending the file,
// that the edit changes nothing (shared.ReadTextUnless), and what it
// looks for: state=present, no backrefs, a line of text with no newline,
// carriage return or NUL, no --diff (whose result holds the file's
// text), insertafter and insertbefore at most BOF or EOF (which a line
// found makes no matter), and the line found by the line itself, by a
// search_string, or by a regexp that is a literal, anchored at either
// end or not (literalPattern). The line found is then replaced by the
// line: nothing changes when it is the line and ends in a newline.
func (e lineEdit) hostDecides(env *tasks.Env, stop *tasks.Result) (shared.LineWant, bool) {
	w := shared.LineWant{Line: string(e.line)}
	if stop != nil || env.Diff || e.remove || e.backrefs || len(e.line) == 0 || bytes.ContainsAny(e.line, "\n\r\x00") {
		return w, false
	}
	for _, p := range []*string{e.insertafter, e.insertbef} {
		if p != nil && *p != "BOF" && *p != "EOF" {
			return w, false
		}
	}
	switch {
	case e.regexp != nil:
		var ok bool
		if w.Find, w.Where, ok = literalPattern(*e.regexp); !ok {
			return w, false
		}
	case e.search != nil:
		if *e.search == "" || strings.ContainsAny(*e.search, "\n\r\x00") {
			return w, false
		}
		w.Find, w.Where = *e.search, 'a'
	}
	w.First = e.firstmatch && w.Find != ""
	return w, true
}

// literalPattern reads a regexp that matches a literal text: not empty,
// with none of Python's special characters, after an optional ^ (the
// line begins with it) and before an optional $ (it ends the line, as
// Python's $ matches before a final newline). where is as
// shared.LineWant's Where.
func literalPattern(re string) (lit string, where byte, ok bool) {
	body, start := strings.CutPrefix(re, "^")
	body, end := strings.CutSuffix(body, "$")
	if body == "" || strings.ContainsAny(body, `.^$*+?{}[]\|()`+"\n\r\x00") {
		return "", 0, false
	}
	switch {
	case start && end:
		where = 'x'
	case start:
		where = 's'
	case end:
		where = 'e'
	default:
		where = 'a'
	}
	return body, where, true
}

// lineFail is the failed result lineinfile gives with msg.
func lineFail(msg string) *tasks.Result {
	r, _ := shared.FailWith(msg, nil)
	return &r
}

// decodeLineEdit builds the edit the arguments ask for, with the warning
// for an empty pattern, or the failure lineinfile gives when the line or
// a pattern it needs is missing or a pattern does not compile.
func decodeLineEdit(a tasks.Values) (lineEdit, *tasks.Result) {
	opt := func(k string) *string {
		if !a.Has(k) {
			return nil
		}
		s := a.Str(k)
		return &s
	}
	e := lineEdit{regexp: opt("regexp"), search: opt("search_string"), insertafter: opt("insertafter"),
		insertbef: opt("insertbefore"), backrefs: a.Bool("backrefs"), firstmatch: a.Bool("firstmatch"),
		remove: a.Str("state") != "present"}
	if (e.regexp != nil && *e.regexp == "") || (e.search != nil && *e.search == "") {
		what, hint := "search string", ""
		if e.regexp != nil {
			what, hint = "regular expression", " If this is desired, use '^' to match every line in the file and avoid this warning."
		}
		e.warnings = append(e.warnings, fmt.Sprintf("The %s is an empty string, which will match every line in the file. "+
			"This may have unintended consequences, such as replacing the last line in the file rather than appending.%s", what, hint))
	}
	line := opt("line")
	if !e.remove {
		if e.backrefs && e.regexp == nil {
			return e, lineFail("regexp is required with backrefs=true")
		}
		if line == nil {
			return e, lineFail("line is required with state=present")
		}
		if e.insertafter == nil && e.insertbef == nil {
			eof := "EOF"
			e.insertafter = &eof
		}
	} else if e.regexp == nil && e.search == nil && line == nil {
		return e, lineFail("one of line, search_string, or regexp is required with state=absent")
	}
	if line != nil {
		e.line = []byte(*line)
	}
	e.lineArg = line
	return e, nil
}

// compile compiles the edit's regexp (with line, its backrefs template)
// and, for state=present, the insertafter/insertbefore pattern; a failed
// result when one does not compile.
func (e *lineEdit) compile(line *string) *tasks.Result {
	var err error
	if e.regexp != nil {
		if e.re, err = pyre.Compile(*e.regexp, pyre.Options{Bytes: true}); err != nil {
			return lineFail(err.Error())
		}
		if e.backrefs && !e.remove {
			if e.tpl, err = pyre.ParseTemplate(*line, e.re); err != nil {
				return lineFail(err.Error())
			}
		}
	}
	if e.remove {
		return nil
	}
	ins := e.insertafter
	if ins == nil || *ins == "BOF" || *ins == "EOF" {
		ins = e.insertbef
		if ins != nil && *ins == "BOF" {
			ins = nil
		}
	}
	if ins != nil {
		if e.ins, err = pyre.Compile(*ins, pyre.Options{Bytes: true}); err != nil {
			return lineFail(err.Error())
		}
	}
	return nil
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
// what it did ("" when nothing changed): the line found is replaced, else
// a new one inserted. A pattern that backtracks past its bound is an
// error.
func (e lineEdit) present(content []byte) ([]byte, string, error) {
	ls := splitLines(content)
	idx, match, matched, err := e.findMatch(ls)
	if err != nil {
		return nil, "", err
	}
	ins := -1
	if !matched {
		if idx, ins, err = e.findLine(ls); err != nil {
			return nil, "", err
		}
	}
	if idx != -1 {
		after, msg := e.replaceLine(content, ls, idx, match)
		return after, msg, nil
	}
	after, msg := e.insertLine(content, ls, ins)
	return after, msg, nil
}

// findMatch finds the last (with firstmatch, the first) line of ls that
// regexp or search_string matches: its index and, for regexp, the
// match's submatch indexes; matched is false when none does.
func (e lineEdit) findMatch(ls [][]byte) (idx int, match []int, matched bool, err error) {
	idx = -1
	if e.re != nil {
		for i, l := range ls {
			m, err := e.re.SearchBytes(l)
			if err != nil {
				return -1, nil, false, err
			}
			if m != nil {
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
	return idx, match, matched, nil
}

// findLine finds the last line of ls that is the line itself (idx, -1
// for none) and where the insertafter/insertbefore pattern puts a new
// one (ins, -1 for nowhere): after or before its last match, its first
// with firstmatch.
func (e lineEdit) findLine(ls [][]byte) (idx, ins int, err error) {
	idx, ins = -1, -1
	for i, l := range ls {
		if bytes.Equal(e.line, trimEOL(l)) {
			idx = i
			continue
		}
		if e.ins == nil {
			continue
		}
		if m, err := e.ins.SearchBytes(l); err != nil {
			return -1, -1, err
		} else if m != nil {
			if e.insertafter != nil {
				ins = i + 1
			} else {
				ins = i
			}
			if e.firstmatch {
				break
			}
		}
	}
	return idx, ins, nil
}

// replaceLine puts the line (expanded from match with backrefs) in place
// of line idx of ls, unless it is there already.
func (e lineEdit) replaceLine(content []byte, ls [][]byte, idx int, match []int) ([]byte, string) {
	newLine := e.line
	if e.tpl != nil && match != nil {
		newLine = e.tpl.Expand(nil, ls[idx], match)
	}
	if !bytes.HasSuffix(newLine, []byte("\n")) {
		newLine = append(append([]byte(nil), newLine...), '\n')
	}
	if bytes.Equal(ls[idx], newLine) {
		return content, ""
	}
	ls[idx] = newLine
	return bytes.Join(ls, nil), "line replaced"
}

// insertLine inserts the line into ls where insertafter/insertbefore say
// (ins is the pattern's place, -1 for none): at the start for BOF, at
// the end for EOF or when the pattern matched nothing, else at ins unless
// the line is there already; with backrefs, nowhere.
func (e lineEdit) insertLine(content []byte, ls [][]byte, ins int) ([]byte, string) {
	after := e.insertafter != nil
	switch {
	case e.backrefs:
		// without a match there is nothing to expand the backrefs from
	case (after && *e.insertafter == "BOF") || (!after && *e.insertbef == "BOF"):
		return e.insertAt(ls, 0)
	case (after && *e.insertafter == "EOF") || ins == -1:
		if len(ls) > 0 && !endsEOL(ls[len(ls)-1]) {
			ls = append(ls, []byte("\n"))
		}
		return e.insertAt(ls, len(ls))
	case after:
		if len(ls) == ins {
			if !bytes.Equal(trimEOL(ls[ins-1]), e.line) {
				return e.insertAt(ls, ins)
			}
		} else if !bytes.Equal(e.line, trimEOL(ls[ins])) {
			return e.insertAt(ls, ins)
		}
	default:
		return e.insertAt(ls, ins)
	}
	return content, ""
}

// insertAt inserts the line, with a newline, before line at of ls.
func (e lineEdit) insertAt(ls [][]byte, at int) ([]byte, string) {
	nl := append(append([]byte(nil), e.line...), '\n')
	ls = append(ls[:at], append([][]byte{nl}, ls[at:]...)...)
	return bytes.Join(ls, nil), "line added"
}

// endsEOL says whether the line ends in a newline or carriage return.
func endsEOL(last []byte) bool {
	return last[len(last)-1] == '\n' || last[len(last)-1] == '\r'
}

// absent drops every line that matches and returns how many it dropped.
func (e lineEdit) absent(content []byte) ([]byte, int, error) {
	var keep [][]byte
	found := 0
	for _, l := range splitLines(content) {
		var m bool
		switch {
		case e.re != nil:
			loc, err := e.re.SearchBytes(l)
			if err != nil {
				return nil, 0, err
			}
			m = loc != nil
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
		return content, 0, nil
	}
	return bytes.Join(keep, nil), found, nil
}

func (lineinfileModule) Spec() *tasks.Spec { return lineinfileArgs }

// makeParents creates the missing parent directories of path on the
// host, as Python's os.makedirs; a failure is lineinfile's "Error
// creating".
func makeParents(ctx context.Context, env *tasks.Env, path string) (*tasks.Result, error) {
	dir := pathpkg.Dir(path)
	if dir == "." || dir == "/" || dir == "" {
		return nil, nil
	}
	r, err := shared.RunWith(ctx, env, `[ -d "$_t_dir" ] && exit 0; LC_ALL=C mkdir -p -- "$_t_dir" 2>&1`, map[string]string{"_t_dir": dir}, nil)
	if err != nil {
		return nil, err
	}
	if r.ExitCode == 0 {
		return nil, nil
	}
	why := strings.TrimSpace(string(r.Stdout))
	if i := strings.LastIndex(why, ": "); i >= 0 {
		why = why[i+2:] // mkdir's "cannot create directory 'D': REASON"
	}
	return lineFail(fmt.Sprintf("Error creating %s (%s)", dir, shared.OSErrorBytes(why, dir))), nil
}
