package packages

import (
	"context"
	_ "embed"
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

// debconfShowScript reads a package's answers (debconf_show.sh);
// debconfSetScript sets one (debconf_set.sh).
var (
	//go:embed debconf_show.sh
	debconfShowScript string
	//go:embed debconf_set.sh
	debconfSetScript string
)

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
	script := shared.SysFuncs + shared.ShAssign([][2]string{{"pkg", pkg}}) + debconfShowScript
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
		script := shared.ShAssign([][2]string{{"unseen", shared.BoolFlag(a.Bool("unseen"))}}) + shared.SysFuncs + debconfSetScript
		sel := strings.NewReader(strings.Join([]string{pkg, question, vtype, set}, " "))
		res, err := shared.Run(ctx, env, script, sel)
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
