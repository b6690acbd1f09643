package system

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// lvolCOW is what lvextend prints when a snapshot cannot grow further.
const lvolCOW = "Reached maximum COW size"

// apply runs the plan's command and then, for an existing volume whose
// command succeeded, lvchange; it reads their results as the module
// does.
func (j *lvolJob) apply(ctx context.Context, env *tasks.Env, p lvolPlan) (tasks.Result, error) {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + lvolLocale)
	change := ""
	if p.this != nil {
		flag := "-an"
		if j.a.Bool("active") {
			flag = "-ay"
		}
		change = "_t_need lvchange\n_t_x c any \"$_t_b\" " + flag + " " + shared.Q(j.vg+"/"+p.this.name)
		if j.check {
			change += " --test"
		}
		change += "\n"
	}
	if p.cmd != "" {
		words, err := shlex.Split(p.cmd)
		if err != nil {
			return pyCrash("ValueError: " + err.Error())
		}
		fmt.Fprintf(&b, "_t_need %s\n_t_x m any \"$_t_b\"", words[0])
		for _, w := range words[1:] {
			b.WriteString(" " + shared.Q(w))
		}
		b.WriteString("\n")
		if change != "" {
			b.WriteString("if [ \"$_t_xrc\" = 0 ] && ! grep -q '" + lvolCOW + "' \"$_t_d/xo\"; then\n" + change + "fi\n")
		}
	} else {
		b.WriteString(change)
	}
	b.WriteString("echo; echo done=1\n")
	out, err := shared.Run(ctx, env, b.String(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	h := shared.ParseBlobMap(out.Stdout)
	if h.V["fail"] != "" {
		return shared.Fail(h.V["fail"]), nil
	}
	if h.V["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	return j.outcome(p, h), nil
}

// outcome reads the commands' results as the module does.
func (j *lvolJob) outcome(p lvolPlan, h shared.Blobs) tasks.Result {
	failed := func(msg, id string, extra ...string) tasks.Result {
		d := map[string]any{"rc": shared.DebAtoi(h.V["rc."+id], 1), "err": h.Blobs["err."+id]}
		for _, k := range extra {
			d[k] = h.Blobs[k+"."+id]
		}
		return tasks.Result{Failed: true, Msg: msg, Data: d}
	}
	changed := false
	if p.cmd != "" {
		ok := h.V["rc.m"] == "0"
		switch p.kind {
		case "create":
			if !ok {
				return failed(p.msg, "m")
			}
			return tasks.Result{Changed: true, Data: map[string]any{"msg": ""}}
		case "remove":
			if !ok {
				return failed(p.msg, "m")
			}
			return tasks.Result{Changed: true, Data: map[string]any{}}
		}
		errText := h.Blobs["err.m"]
		same := map[string]any{"vg": j.vg, "lv": p.this.name, "size": p.this.size}
		switch {
		case strings.Contains(h.Blobs["out.m"], lvolCOW):
			return failed(p.msg, "m", "out")
		case ok:
			changed = true
		case strings.Contains(errText, "matches existing size"):
			return tasks.Result{Data: same}
		case strings.Contains(errText, "not larger than existing size"):
			same["msg"], same["err"] = "Original size is larger than requested size", errText
			return tasks.Result{Data: same}
		default:
			return failed(p.msg, "m")
		}
	}
	active := j.a.Bool("active")
	if h.V["rc.c"] != "0" {
		verb := "deactivate"
		if active {
			verb = "activate"
		}
		return failed(fmt.Sprintf("Failed to %s logical volume %s", verb, j.noneStr(j.lv)), "c")
	}
	return tasks.Result{Changed: p.this.active != active || changed,
		Data: map[string]any{"vg": j.vg, "lv": p.this.name, "size": p.this.size}}
}
