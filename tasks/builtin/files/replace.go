package files

import (
	"context"
	"fmt"
	"strings"
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

// Run replaces.
func (replaceModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := replaceArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	failed := shared.FailWith
	fa, err := shared.AttrsOf(a)
	if err != nil {
		return failed(err.Error(), nil)
	}
	codec, ok := textCodecs[strings.ToLower(strings.ReplaceAll(a.Str("encoding"), "_", "-"))]
	if !ok {
		return failed(fmt.Sprintf("unknown encoding: %s (tender reads utf-8, ascii and latin-1)", a.Str("encoding")), nil)
	}
	mre, err := pyre.Compile(a.Str("regexp"), pyre.Options{Multiline: true})
	if err != nil {
		return failed(err.Error(), nil)
	}
	tpl, err := pyre.ParseTemplate(a.Str("replace"), mre)
	if err != nil {
		return failed(err.Error(), nil)
	}
	section := ""
	switch after, before := a.Str("after"), a.Str("before"); {
	case after != "" && before != "":
		section = after + "(?P<subsection>.*?)" + before
	case after != "":
		section = after + "(?P<subsection>.*)"
	case before != "":
		section = "(?P<subsection>.*)" + before
	}

	p := a.Str("path")
	var msg string
	f, fail, err := shared.ReadText(ctx, env, p, fa)
	if err != nil {
		return tasks.Result{}, err
	}
	switch {
	case fail != nil:
		return *fail, nil
	case !f.Exists:
		return failed(fmt.Sprintf("Path %s does not exist !", p), map[string]any{"rc": 257})
	}
	text, err := codec.decode(f.Content)
	if err != nil {
		return failed(fmt.Sprintf("Unable to read the contents of %s: %v", p, err), nil)
	}
	start, end := 0, len(text)
	if section != "" {
		sre, err := pyre.Compile(section, pyre.Options{DotAll: true})
		if err != nil {
			return failed(err.Error(), nil)
		}
		m := sre.FindSubmatchIndex(text)
		if m == nil {
			return tasks.Result{Msg: "Pattern for before/after params did not match the given file: " + section,
				Data: map[string]any{"rc": 0, "msg": "Pattern for before/after params did not match the given file: " + section}}, nil
		}
		g := sre.SubexpIndex("subsection")
		start, end = m[2*g], m[2*g+1]
	}
	sub, n := tpl.Subn(mre, text[start:end])
	changed := n > 0 && string(sub) != string(text[start:end])
	data := map[string]any{"rc": 0}
	res := tasks.Result{Data: data}
	var after []byte
	if changed {
		after = append(append(append([]byte(nil), text[:start]...), sub...), text[end:]...)
		msg = fmt.Sprintf("%d replacements made", n)
		if env.Diff {
			d := map[string]any{"before_header": p, "before": string(text), "after_header": p, "after": string(after)}
			data["diff"] = d
			res.Diff = shared.RenderDiff(d)
		}
		if after, err = codec.encode(after); err != nil {
			return failed(err.Error(), nil)
		}
	} else {
		after = f.Content
	}
	av := f.Attrs
	if !env.Check && (changed || shared.AttrsChanged(f.Attrs)) {
		v, fail, err := f.WriteText(ctx, env, after, shared.WriteOpts{Attrs: fa, Backup: a.Bool("backup"), Validate: a.Str("validate")})
		if err != nil {
			return tasks.Result{}, err
		}
		if fail != "" {
			return failed(fail, nil)
		}
		if b := v["backup_file"]; b != "" && a.Bool("backup") {
			data["backup_file"] = b
		}
		av = v
	}
	if shared.AttrsChanged(av) {
		msg, changed = shared.AttrMsg(msg), true
	}
	res.Changed, res.Msg, data["msg"] = changed, msg, msg
	return res, nil
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
			for _, r := range string(b) {
				if r > 0xff {
					return nil, fmt.Errorf("'latin-1' codec can't encode character %U", r)
				}
				out = append(out, byte(r))
			}
			return out, nil
		},
	}
	textCodecs = map[string]textCodec{
		"utf-8": utf8Codec, "utf8": utf8Codec, "ascii": utf8Codec, "us-ascii": utf8Codec,
		"latin-1": latin1Codec, "latin1": latin1Codec, "iso-8859-1": latin1Codec, "iso8859-1": latin1Codec,
	}
)

func (replaceModule) Spec() *tasks.Spec { return replaceArgs }
