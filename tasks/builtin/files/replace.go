package files

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// replaceModule replaces every match of a regular expression in a file
// (or in the part of it between after and before), as Ansible's replace:
// Python's re.subn with MULTILINE on the file's text. One round trip reads
// the file, a second writes it only when it changes.
type replaceModule struct{}

var _ tasks.Module = (*replaceModule)(nil)

var replaceArgs = &tasks.Spec{
	Module: "replace",
	Params: append([]tasks.Param{
		shared.EditPath,
		{Name: "regexp", Required: true},
		{Name: "replace", Default: ""},
		{Name: "after"},
		{Name: "before"},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "validate"},
		{Name: "encoding", Default: "utf-8"},
	}, shared.AttrParams...),
}

// Run replaces: the edit decoded, the file read, the replacements planned
// on its text, and the file written when its text or attributes change.
func (replaceModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, fa, e, stop, err := editStart(args, replaceArgs, decodeReplace)
	if stop != nil || err != nil {
		return shared.EndWith(stop, err)
	}
	p := a.Str("path")
	f, fail, err := shared.ReadText(ctx, env, p, fa)
	if err != nil {
		return tasks.Result{}, err
	}
	switch {
	case fail != nil:
		return *fail, nil
	case !f.Exists:
		return shared.FailWith(fmt.Sprintf("Path %s does not exist !", p), map[string]any{"rc": 257})
	}
	r, done := e.plan(f.Content, p, env.Diff)
	if done != nil {
		return *done, nil
	}
	av := f.Attrs
	if !env.Check && (r.changed || shared.AttrsChanged(f.Attrs)) {
		w := shared.WriteOpts{Attrs: fa, Backup: e.backup, Validate: e.validate}
		if av, fail, err = e.write(ctx, env, f, r, w); err != nil || fail != nil {
			return shared.EndWith(fail, err)
		}
	}
	return r.result(av), nil
}

// replaceEdit is one replace task: the codec the file is read with, the
// pattern and its replacement, the before/after section pattern ("" for
// the whole file), and how the file is written.
type replaceEdit struct {
	codec    textCodec
	mre      *pyre.Regexp
	tpl      *pyre.Template
	section  string
	backup   bool
	validate string
}

// replacement is a planned replace: the file's new bytes, whether they
// differ, the message, and the result so far (rc, and the diff).
type replacement struct {
	after   []byte
	changed bool
	msg     string
	res     tasks.Result
}

// decodeReplace builds the edit the arguments ask for, or the failure
// replace gives for an unknown encoding, a pattern or a replacement it
// cannot read.
func decodeReplace(a tasks.Values) (replaceEdit, *tasks.Result) {
	failed := func(msg string) (replaceEdit, *tasks.Result) {
		r, _ := shared.FailWith(msg, nil)
		return replaceEdit{}, &r
	}
	e := replaceEdit{backup: a.Bool("backup"), validate: a.Str("validate")}
	var ok bool
	if e.codec, ok = codecFor(a.Str("encoding")); !ok {
		return failed(fmt.Sprintf("unknown encoding: %s", a.Str("encoding")))
	}
	var err error
	if e.mre, err = pyre.Compile(a.Str("regexp"), pyre.Options{Multiline: true}); err != nil {
		return failed(err.Error())
	}
	if e.tpl, err = pyre.ParseTemplate(a.Str("replace"), e.mre); err != nil {
		return failed(err.Error())
	}
	switch after, before := a.Str("after"), a.Str("before"); {
	case after != "" && before != "":
		e.section = after + "(?P<subsection>.*?)" + before
	case after != "":
		e.section = after + "(?P<subsection>.*)"
	case before != "":
		e.section = "(?P<subsection>.*)" + before
	}
	return e, nil
}

// plan replaces the matches in the text of content (the file at p),
// within the section when there is one, with the diff when diff is on; a
// non-nil result ends the task: text the codec cannot read or write, a
// section pattern that does not compile or does not match.
func (e replaceEdit) plan(content []byte, p string, diff bool) (replacement, *tasks.Result) {
	failed := func(msg string) (replacement, *tasks.Result) {
		r, _ := shared.FailWith(msg, nil)
		return replacement{}, &r
	}
	text, err := e.codec.decode(content)
	if err != nil {
		return failed(fmt.Sprintf("Unable to read the contents of %s: %v", p, err))
	}
	start, end, done := e.bounds(text)
	if done != nil {
		return replacement{}, done
	}
	sub, n, err := e.tpl.Subn(e.mre, text[start:end])
	if err != nil {
		return failed(err.Error())
	}
	r := replacement{changed: n > 0 && string(sub) != string(text[start:end]), res: tasks.Result{Data: map[string]any{"rc": 0}}}
	if !r.changed {
		r.after = content
		return r, nil
	}
	r.after = append(append(append([]byte(nil), text[:start]...), sub...), text[end:]...)
	r.msg = fmt.Sprintf("%d replacements made", n)
	if diff {
		d := map[string]any{"before_header": p, "before": string(text), "after_header": p, "after": string(r.after)}
		r.res.Data["diff"] = d
		r.res.Diff = shared.RenderDiff(d)
	}
	if r.after, err = e.codec.encode(r.after); err != nil {
		return failed(err.Error())
	}
	return r, nil
}

// bounds is where in text the replacements happen: the section's
// subsection, or all of it; a non-nil result ends the task when the
// section pattern does not compile or does not match.
func (e replaceEdit) bounds(text []byte) (int, int, *tasks.Result) {
	if e.section == "" {
		return 0, len(text), nil
	}
	sre, err := pyre.Compile(e.section, pyre.Options{DotAll: true})
	if err != nil {
		r, _ := shared.FailWith(err.Error(), nil)
		return 0, 0, &r
	}
	m, err := sre.SearchBytes(text)
	if err != nil {
		r, _ := shared.FailWith(err.Error(), nil)
		return 0, 0, &r
	}
	if m == nil {
		msg := "Pattern for before/after params did not match the given file: " + e.section
		return 0, 0, &tasks.Result{Msg: msg, Data: map[string]any{"rc": 0, "msg": msg}}
	}
	g := sre.SubexpIndex("subsection")
	return m[2*g], m[2*g+1], nil
}

// write writes the planned bytes (with w's attributes, backup and
// validation) and returns the written file's attributes, noting the backup
// in the result's data; a failure to write is a failed result.
func (e replaceEdit) write(ctx context.Context, env *tasks.Env, f *shared.TextFile, r replacement,
	w shared.WriteOpts) (shared.Verdict, *tasks.Result, error) {
	v, msg, err := f.WriteText(ctx, env, r.after, w)
	if err != nil {
		return nil, nil, err
	}
	if msg != "" {
		res, _ := shared.FailWith(msg, nil)
		return nil, &res, nil
	}
	if b := v["backup_file"]; b != "" && e.backup {
		r.res.Data["backup_file"] = b
	}
	return v, nil, nil
}

// result is the task's result for the replacement, av being the file's
// attribute changes (written or, in check mode, to be written).
func (r replacement) result(av shared.Verdict) tasks.Result {
	msg, changed := r.msg, r.changed
	if shared.AttrsChanged(av) {
		msg, changed = shared.AttrMsg(msg), true
	}
	res := r.res
	res.Changed, res.Msg, res.Data["msg"] = changed, msg, msg
	return res
}

// textCodec converts a file's bytes to the UTF-8 text the regular
// expressions see, and back.
type textCodec struct {
	decode, encode func([]byte) ([]byte, error)
}

var (
	utf8Codec = textCodec{
		decode: func(b []byte) ([]byte, error) {
			if !utf8.Valid(b) {
				return nil, fmt.Errorf("the file is not valid utf-8")
			}
			return b, nil
		},
		encode: func(b []byte) ([]byte, error) { return b, nil },
	}
	latin1Codec = textCodec{
		decode: func(b []byte) ([]byte, error) {
			out := make([]byte, 0, len(b))
			for _, c := range b {
				out = utf8.AppendRune(out, rune(c))
			}
			return out, nil
		},
		encode: func(b []byte) ([]byte, error) {
			out := make([]byte, 0, len(b))
			for i, r := range []rune(string(b)) {
				if r > 0xff {
					return nil, fmt.Errorf("'latin-1' codec can't encode character '\\u%04x' in position %d: ordinal not in range(256)", r, i)
				}
				out = append(out, byte(r))
			}
			return out, nil
		},
	}
	textCodecs = map[string]textCodec{
		"utf-8": utf8Codec, "utf8": utf8Codec, "u8": utf8Codec, "ascii": asciiCodec, "us-ascii": asciiCodec, "646": asciiCodec,
		"latin-1": latin1Codec, "latin1": latin1Codec, "iso-8859-1": latin1Codec, "iso8859-1": latin1Codec,
	}
)

func (replaceModule) Spec() *tasks.Spec { return replaceArgs }
