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

// iniEdit is one ini_file task.
type iniEdit struct {
	section, option             string
	values                      []string
	present, exclusive, noValue bool
	format                      string
	opt, active                 *regexp.Regexp
}

// iniFake names the section standing for the lines before the first
// section (ini_file's own trick, so its output is the same).
const iniFake = "ad01e11446efb704fcdbdb21f2c43757423d91c5"

// Run edits the INI file.
func (iniFileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := iniFileArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	fa, err := shared.AttrsOf(a)
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	e := iniEdit{section: a.Str("section"), option: a.Str("option"), present: a.Str("state") == "present",
		exclusive: a.Bool("exclusive"), noValue: a.Bool("allow_no_value"), format: "%s = %s\n"}
	if a.Bool("no_extra_spaces") {
		e.format = "%s=%s\n"
	}
	if e.present && !e.noValue && !a.Has("value") && len(a.List("values")) == 0 {
		return shared.FailWith("Parameter 'value(s)' must be defined if state=present and allow_no_value=False.", nil)
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

	p := a.Str("path")
	f, fail, err := shared.ReadText(ctx, env, p, fa)
	if err != nil {
		return tasks.Result{}, err
	}
	if fail != nil {
		return *fail, nil
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
	res := tasks.Result{Data: data}
	info := f.Attrs
	if !env.Check && (changed || (f.Exists && shared.AttrsChanged(f.Attrs))) {
		w := shared.WriteOpts{Attrs: fa, Backup: a.Bool("backup") && changed, Mkdirs: true}
		content := []byte(after)
		if !changed {
			content = f.Content
		}
		v, fail, err := f.WriteText(ctx, env, content, w)
		if err != nil {
			return tasks.Result{}, err
		}
		if fail != "" {
			return shared.FailWith(fail, nil)
		}
		if w.Backup {
			data["backup_file"] = v["backup_file"]
		}
		changed = changed || shared.AttrsChanged(v)
		info = v
	}
	// Ansible adds the file's attributes to a result naming an existing path.
	shared.InfoData(data, info, "")
	res.Changed, res.Msg, data["msg"] = changed, msg, msg
	if env.Diff && changed {
		res.Diff = shared.RenderDiff(data["diff"].(map[string]any))
	}
	return res, nil
}

// apply edits the text of an INI file as ini_file does, line by line.
func (e iniEdit) apply(text string) (string, bool, string) {
	var ls []string
	for _, l := range splitLines([]byte(text)) {
		ls = append(ls, string(l))
	}
	changed := false
	if len(ls) == 0 {
		ls = append(ls, "\n")
	}
	if last := ls[len(ls)-1]; !strings.HasSuffix(last, "\n") {
		ls[len(ls)-1] += "\n"
		changed = true
	}
	ls = append(append([]string{"[" + iniFake + "]"}, ls...), "[")
	section := e.section
	if section == "" {
		section = iniFake
	}
	within := false
	start, end := 0, 0
	for i, l := range ls {
		if strings.HasPrefix(l, "["+section+"]") {
			within, start = true, i
		} else if strings.HasPrefix(l, "[") && within {
			end = i
			break
		}
	}
	head := append([]string(nil), ls[:start]...)
	sec := append([]string(nil), ls[start:end]...)
	tail := append([]string(nil), ls[end:]...)
	touched := make([]bool, len(sec))
	msg := "OK"
	values := append([]string(nil), e.values...)
	set := func(i int, line string) {
		if sec[i] != line {
			changed, msg = true, "option changed"
		}
		sec[i], touched[i] = line, true
	}
	noValuePresent := false
	if e.present && e.option != "" {
		for i, l := range sec {
			m := e.opt.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			if len(values) > 0 && slices.Contains(values, m[6]) {
				if m[6] == "" && e.noValue {
					set(i, e.option+"\n")
					noValuePresent = true
				} else {
					set(i, fmt.Sprintf(e.format, e.option, m[6]))
				}
				values = removeStr(values, m[6])
			} else if len(values) == 0 && e.noValue {
				set(i, e.option+"\n")
				noValuePresent = true
				break
			}
		}
	}
	// (ini_file fails here without an option; tender leaves the section be)
	if e.present && e.exclusive && !e.noValue && e.option != "" {
		if len(values) > 0 {
			for i, l := range sec {
				if !touched[i] && e.opt.MatchString(l) {
					set(i, fmt.Sprintf(e.format, e.option, values[0]))
					values = values[1:]
					if len(values) == 0 {
						break
					}
				}
			}
		}
		for i := len(sec) - 1; i > 0; i-- {
			if !touched[i] && e.opt.MatchString(sec[i]) {
				sec = append(sec[:i], sec[i+1:]...)
				touched = append(touched[:i], touched[i+1:]...)
				changed, msg = true, "option changed"
			}
		}
	}
	if e.present {
		for i := len(sec); i > 0; i-- {
			if iniBlank.MatchString(sec[i-1]) {
				continue
			}
			if e.option != "" && len(values) > 0 {
				var add []string
				for _, v := range values {
					add = append(add, fmt.Sprintf(e.format, e.option, v))
				}
				sec = append(sec[:i], append(add, sec[i:]...)...)
				changed, msg = true, "option added"
			} else if e.option != "" && len(values) == 0 && e.noValue && !noValuePresent {
				sec = append(sec[:i], append([]string{e.option + "\n"}, sec[i:]...)...)
				changed, msg = true, "option added"
			}
			break
		}
	} else if e.option != "" {
		var keep []string
		for _, l := range sec {
			m := e.active.FindStringSubmatch(l)
			drop := m != nil && (e.exclusive || slices.Contains(values, m[6]))
			if !drop {
				keep = append(keep, l)
			}
		}
		if (e.exclusive || len(values) > 0) && len(keep) != len(sec) {
			sec, changed, msg = keep, true, "option changed"
		}
	} else if len(sec) > 0 {
		sec, changed, msg = nil, true, "section removed"
	}
	ls = append(append(head, sec...), tail...)
	ls = ls[1 : len(ls)-1]
	if !within && e.present {
		ls = append(ls, "["+section+"]\n")
		msg = "section and option added"
		switch {
		case e.option != "" && len(values) > 0:
			for _, v := range values {
				ls = append(ls, fmt.Sprintf(e.format, e.option, v))
			}
		case e.option != "" && e.noValue:
			ls = append(ls, e.option+"\n")
		default:
			msg = "only section added"
		}
		changed = true
	}
	return strings.Join(ls, ""), changed, msg
}

// iniBlank matches a blank or comment line.
var iniBlank = regexp.MustCompile(`^[ \t]*([#;].*)?(?m:$)`)

func removeStr(l []string, s string) []string {
	for i, x := range l {
		if x == s {
			return append(l[:i:i], l[i+1:]...)
		}
	}
	return l
}

func (iniFileModule) Spec() *tasks.Spec { return iniFileArgs }
