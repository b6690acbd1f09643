package files

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// iniFileModule sets, adds or removes an option (or a whole section) of an
// INI file, as community.general.ini_file 6.6 (the ini_file that
// ansible-core 2.14 resolves to). One round trip reads the file, a second
// writes it only when it changes.
type iniFileModule struct{}

var _ tasks.Module = (*iniFileModule)(nil)

var iniFileArgs = &tasks.Spec{
	Module: "ini_file",
	Params: append([]tasks.Param{
		{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"dest"}},
		{Name: "section"},
		{Name: "option"},
		{Name: "value"},
		{Name: "values", Kind: tasks.List},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "exclusive", Kind: tasks.Bool, Default: true},
		{Name: "no_extra_spaces", Kind: tasks.Bool, Default: false},
		{Name: "allow_no_value", Kind: tasks.Bool, Default: false},
		{Name: "create", Kind: tasks.Bool, Default: true},
	}, shared.AttrParams...),
	MutuallyExclusive: [][]string{{"value", "values"}},
}

// Run edits the INI file: the edit decoded from the arguments, the file
// read, the edit planned on its text, and the file written when the text
// or its attributes change.
func (iniFileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, fa, e, stop, err := editStart(args, iniFileArgs, decodeIniEdit)
	if stop != nil || err != nil {
		return shared.EndWith(stop, err)
	}
	p := a.Str("path")
	f, fail, err := shared.ReadText(ctx, env, p, fa)
	if err != nil || fail != nil {
		return shared.EndWith(fail, err)
	}
	if !f.Exists && !a.Bool("create") {
		return shared.FailWith(fmt.Sprintf("Destination %s does not exist!", p), map[string]any{"rc": 257})
	}
	// ini_file replaces the file itself, a link included.
	f.Real = p
	before := strings.TrimPrefix(string(f.Content), "\ufeff")
	before = strings.ReplaceAll(strings.ReplaceAll(before, "\r\n", "\n"), "\r", "\n")
	after, changed, msg := e.apply(before)
	data := map[string]any{"path": p, "diff": shared.ContentDiff(env, p+" (content)", []byte(before), []byte(after))}
	info := f.Attrs
	if !env.Check && (changed || (f.Exists && shared.AttrsChanged(f.Attrs))) {
		w := shared.WriteOpts{Attrs: fa, Backup: a.Bool("backup") && changed, Mkdirs: true}
		if info, fail, err = writeIni(ctx, env, f, after, changed, w, data); err != nil || fail != nil {
			return shared.EndWith(fail, err)
		}
		changed = changed || shared.AttrsChanged(info)
	}
	// Ansible adds the file's attributes to a result naming an existing path.
	shared.InfoData(data, info, "")
	res := tasks.Result{Changed: changed, Msg: msg, Data: data}
	data["msg"] = msg
	if env.Diff && changed {
		res.Diff = shared.RenderDiff(data["diff"].(map[string]any))
	}
	return res, nil
}

// decodeIniEdit builds the edit the arguments ask for, or the failure
// ini_file gives when they ask for a value and name none.
func decodeIniEdit(a tasks.Values) (iniEdit, *tasks.Result) {
	e := iniEdit{section: a.Str("section"), option: a.Str("option"), present: a.Str("state") == "present",
		exclusive: a.Bool("exclusive"), noValue: a.Bool("allow_no_value"), format: "%s = %s\n"}
	if a.Bool("no_extra_spaces") {
		e.format = "%s=%s\n"
	}
	if e.present && !e.noValue && !a.Has("value") && len(a.List("values")) == 0 {
		r, _ := shared.FailWith("Parameter 'value(s)' must be defined if state=present and allow_no_value=False.", nil)
		return e, &r
	}
	vals := a.Strings("values")
	if a.Has("value") {
		vals = []string{a.Str("value")}
	}
	for _, v := range vals {
		if !slices.Contains(e.values, v) {
			e.values = append(e.values, v)
		}
	}
	o := regexp.QuoteMeta(e.option)
	e.opt = regexp.MustCompile(`^[#;]?( |\t)*(` + o + `)( |\t)*(=|(?m:$))( |\t)*(.*)`)
	e.active = regexp.MustCompile(`^( |\t)*(` + o + `)( |\t)*(=|(?m:$))( |\t)*(.*)`)
	return e, nil
}

// writeIni writes the edited text (or, when only attributes change, the
// text as it was) and returns the written file's attributes, noting the
// backup in data; a failure to write is a failed result.
func writeIni(ctx context.Context, env *tasks.Env, f *shared.TextFile, after string, changed bool, w shared.WriteOpts,
	data map[string]any) (shared.Verdict, *tasks.Result, error) {
	content := []byte(after)
	if !changed {
		content = f.Content
	}
	v, msg, err := f.WriteText(ctx, env, content, w)
	if err != nil {
		return nil, nil, err
	}
	if msg != "" {
		r, _ := shared.FailWith(msg, nil)
		return nil, &r, nil
	}
	if w.Backup {
		data["backup_file"] = v["backup_file"]
	}
	return v, nil, nil
}

func (iniFileModule) Spec() *tasks.Spec { return iniFileArgs }
