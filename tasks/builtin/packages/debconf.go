package packages

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
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

// debconfJob is one debconf task: its decoded arguments and, once the
// package's answers are read, the value to compare and set.
type debconfJob struct {
	pkg, question, vtype string
	// value is the answer asked for, lower-cased when it is compared
	// with a boolean answer already given.
	value  string
	unseen bool
}

// Run sets the answer.
func (debconfModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := debconfArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, err := decodeDebconf(a)
	if err != nil {
		return tasks.Result{}, err
	}
	res, err := shared.Run(ctx, env, j.showScript(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	prev, bad := debconfAnswers(res)
	if bad != nil {
		return *bad, nil
	}
	if !j.plan(prev) {
		return j.unchanged(prev), nil
	}
	msg := ""
	if !env.Check {
		res, err := shared.Run(ctx, env, j.setScript(), j.selection())
		if err != nil {
			return tasks.Result{}, err
		}
		if msg, bad = debconfSetOutput(res); bad != nil {
			return *bad, nil
		}
	}
	return j.result(prev, msg, env.Diff), nil
}

// decodeDebconf checks that question, vtype and value come together and
// makes the job from the arguments.
func decodeDebconf(a tasks.Values) (*debconfJob, error) {
	n := 0
	for _, k := range []string{"question", "vtype", "value"} {
		if a.Has(k) {
			n++
		}
	}
	if n != 0 && n != 3 {
		return nil, fmt.Errorf("parameters are required together: question, vtype, value")
	}
	return &debconfJob{pkg: a.Str("name"), question: a.Str("question"), vtype: a.Str("vtype"), value: a.Str("value"),
		unseen: a.Bool("unseen")}, nil
}

// debconfFail is the failed result, with msg, that debconf gives when a
// script could not do its part.
func debconfFail(msg string) tasks.Result {
	return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}
}

// showScript is debconf_show.sh with the package assigned before it.
func (j *debconfJob) showScript() string {
	return shared.SysFuncs + shared.ShAssign([][2]string{{"pkg", j.pkg}}) + debconfShowScript
}

// debconfAnswers reads the package's answers from debconf_show.sh's
// output, or the failure when it could not list them.
func debconfAnswers(res transport.Result) (map[string]any, *tasks.Result) {
	v, out, errOut := shared.Tailed(res.Stdout)
	if msg := shared.SysFailMsg(res, v, errOut); msg != "" {
		r := debconfFail(msg)
		return nil, &r
	}
	prev := map[string]any{}
	for _, l := range shared.Lines(out) {
		k, val, ok := strings.Cut(l.(string), ":")
		if !ok {
			r := debconfFail(fmt.Sprintf("cannot read debconf-show's line %q", l))
			return nil, &r
		}
		prev[strings.TrimSpace(strings.Trim(k, "*"))] = strings.TrimSpace(val)
	}
	return prev, nil
}

// debconfSetOutput is debconf-set-selections' output from
// debconf_set.sh's, or the failure when it could not set the answer.
func debconfSetOutput(res transport.Result) (string, *tasks.Result) {
	v, out, errOut := shared.Tailed(res.Stdout)
	if msg := shared.SysFailMsg(res, v, errOut); msg != "" {
		r := debconfFail(msg)
		return "", &r
	}
	return out, nil
}

// plan reports whether the answer differs from the one in prev (a
// boolean compared without case, the value then lower-cased).
func (j *debconfJob) plan(prev map[string]any) bool {
	if j.question == "" {
		return false
	}
	old, ok := prev[j.question]
	switch {
	case !ok:
		return true
	case j.vtype == "boolean":
		j.value = strings.ToLower(j.value)
		return j.value != strings.ToLower(old.(string))
	}
	return j.value != old
}

// unchanged is the result when the answer is already given: the
// package's answers, a password's masked.
func (j *debconfJob) unchanged(prev map[string]any) tasks.Result {
	if j.vtype == "password" {
		if _, ok := prev[j.question]; ok {
			prev[j.question] = shared.MaskedValue
		}
	}
	return tasks.Result{Data: map[string]any{"msg": "", "current": prev}}
}

// setScript is debconf_set.sh with unseen assigned before it.
func (j *debconfJob) setScript() string {
	return shared.ShAssign([][2]string{{"unseen", shared.BoolFlag(j.unseen)}}) + shared.SysFuncs + debconfSetScript
}

// selection is debconf-set-selections' input line, a boolean's True or
// False written in lower case.
func (j *debconfJob) selection() io.Reader {
	set := j.value
	if j.vtype == "boolean" {
		switch set {
		case "True":
			set = "true"
		case "False":
			set = "false"
		}
	}
	return strings.NewReader(strings.Join([]string{j.pkg, j.question, j.vtype, set}, " "))
}

// result is the changed result once the answer is set (or would be, in
// check mode): msg is debconf-set-selections' output, prev the answers
// read before, a password's value masked.
func (j *debconfJob) result(prev map[string]any, msg string, diffMode bool) tasks.Result {
	secret := j.vtype == "password"
	shown := j.value
	if secret {
		shown = shared.MaskedValue
	}
	curr := map[string]any{j.question: shown}
	if old, ok := prev[j.question]; ok {
		if secret {
			old = shared.MaskedValue
		}
		prev = map[string]any{j.question: old}
	} else {
		prev[j.question] = ""
	}
	diff := map[string]any{}
	if diffMode {
		after := map[string]any{}
		for k, x := range prev {
			after[k] = x
		}
		after[j.question] = shown
		diff = map[string]any{"before": prev, "after": after}
	}
	return tasks.Result{Changed: true, Msg: msg, Data: map[string]any{"msg": msg, "current": curr, "previous": prev, "diff": diff}}
}

func (debconfModule) Spec() *tasks.Spec { return debconfArgs }
