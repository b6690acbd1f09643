package packages

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// debconfModule answers a debconf question as Ansible's debconf module
// does, with the host's debconf-show and debconf-set-selections (a host
// without them fails as Ansible does). One round trip reads the package's
// answers; a second sets the new one, only when it differs. The value
// reaches debconf-set-selections on its standard input, never a command
// line; a password's value is masked in the result.
type debconfModule struct{}

var _ tasks.Module = (*debconfModule)(nil)

var debconfArgs = &tasks.Spec{
	Module: "debconf",
	Params: []tasks.Param{
		{Name: "name", Required: true, Aliases: []string{"pkg"}},
		{Name: "question", Aliases: []string{"selection", "setting"}},
		{Name: "vtype", Choices: []string{"boolean", "error", "multiselect", "note", "password", "seen", "select", "string", "text", "title"}},
		{Name: "value", Aliases: []string{"answer"}},
		{Name: "unseen", Kind: tasks.Bool, Default: false},
	},
}

// Run sets the answer.
func (debconfModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := debconfArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	n := 0
	for _, k := range []string{"question", "vtype", "value"} {
		if a.Has(k) {
			n++
		}
	}
	if n != 0 && n != 3 {
		return tasks.Result{}, fmt.Errorf("parameters are required together: question, vtype, value")
	}
	pkg, question, vtype, value := a.Str("name"), a.Str("question"), a.Str("vtype"), a.Str("value")
	fail := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	script := shared.SysFuncs + "pkg=" + shared.Q(pkg) + `
command -v debconf-show >/dev/null 2>&1 || { echo 'fail=Failed to find required executable "debconf-show" in paths: '"$PATH"; exit 0; }
_t_run debconf-show "$pkg" || echo fail=rc
_t_tail
`
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	if msg := shared.SysFailMsg(res, v, errOut); msg != "" {
		return fail(msg)
	}
	prev := map[string]any{}
	for _, l := range shared.Lines(out) {
		k, val, ok := strings.Cut(l.(string), ":")
		if !ok {
			return fail(fmt.Sprintf("cannot read debconf-show's line %q", l))
		}
		prev[strings.TrimSpace(strings.Trim(k, "*"))] = strings.TrimSpace(val)
	}
	changed := false
	if question != "" {
		old, ok := prev[question]
		switch {
		case !ok:
			changed = true
		case vtype == "boolean":
			value = strings.ToLower(value)
			changed = value != strings.ToLower(old.(string))
		default:
			changed = value != old
		}
	}
	secret := vtype == "password"
	if !changed {
		if secret {
			if _, ok := prev[question]; ok {
				prev[question] = shared.MaskedValue
			}
		}
		return tasks.Result{Data: map[string]any{"msg": "", "current": prev}}, nil
	}
	msg := ""
	if !env.Check {
		set := value
		if vtype == "boolean" {
			switch set {
			case "True":
				set = "true"
			case "False":
				set = "false"
			}
		}
		script := "_sel=$T_SEL; unset T_SEL\n" + shared.SysFuncs + "unseen=" + shared.BoolFlag(a.Bool("unseen")) + `
command -v debconf-set-selections >/dev/null 2>&1 || { echo 'fail=Failed to find required executable "debconf-set-selections" in paths: '"$PATH"; exit 0; }
set -- debconf-set-selections
[ -n "$unseen" ] && set -- "$@" -u
printf '%s' "$_sel" | "$@" >"$_t_d/o" 2>"$_t_d/e" || echo fail=rc
_t_tail
`
		res, err := shared.RunWith(ctx, env, script, map[string]string{"T_SEL": strings.Join([]string{pkg, question, vtype, set}, " ")}, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		v, out, errOut := shared.Tailed(res.Stdout)
		if msg := shared.SysFailMsg(res, v, errOut); msg != "" {
			return fail(msg)
		}
		msg = out
	}
	shown := value
	if secret {
		shown = shared.MaskedValue
	}
	curr := map[string]any{question: shown}
	if old, ok := prev[question]; ok {
		if secret {
			old = shared.MaskedValue
		}
		prev = map[string]any{question: old}
	} else {
		prev[question] = ""
	}
	diff := map[string]any{}
	if env.Diff {
		after := map[string]any{}
		for k, x := range prev {
			after[k] = x
		}
		after[question] = shown
		diff = map[string]any{"before": prev, "after": after}
	}
	return tasks.Result{Changed: true, Msg: msg, Data: map[string]any{"msg": msg, "current": curr, "previous": prev, "diff": diff}}, nil
}

func (debconfModule) Spec() *tasks.Spec { return debconfArgs }
