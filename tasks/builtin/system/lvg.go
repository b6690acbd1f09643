package system

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// lvgModule is community.general's lvg: it creates, extends, reduces
// and removes LVM volume groups with the host's LVM tools. It reads the
// devices, `pvs` and `vgs` in one round trip (and, for pvresize, each
// member's sizes with pvdisplay in a second), then runs pvcreate,
// vgcreate, vgextend, vgreduce, pvresize or vgremove in another, as the
// module decides.
type lvgModule struct{}

var _ tasks.Module = lvgModule{}

var lvgArgs = &tasks.Spec{
	Module: "lvg",
	Params: []tasks.Param{
		{Name: "vg", Required: true},
		{Name: "pvs", Kind: tasks.List},
		{Name: "pesize", Default: "4"},
		{Name: "pv_options", Default: ""},
		{Name: "pvresize", Kind: tasks.Bool, Default: false},
		{Name: "vg_options", Default: ""},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "force", Kind: tasks.Bool, Default: false},
	},
}

// Spec returns lvg's parameters.
func (lvgModule) Spec() *tasks.Spec { return lvgArgs }

//go:embed lvg.sh
var lvgFuncs string

// lvgJob is one task.
type lvgJob struct {
	a       tasks.Values
	check   bool
	vg      string
	present bool
	pvs     []string // the pvs as given
	devs    []string // their real paths, read on the host
}

// Run reads the volume groups and changes them.
func (lvgModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := lvgArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := &lvgJob{a: a, check: env.Check, vg: a.Str("vg"), present: a.Str("state") == "present", pvs: a.Strings("pvs")}
	if len(j.pvs) == 0 && j.present {
		return shared.Fail("No physical volumes given."), nil
	}
	out, err := shared.Run(ctx, env, j.readScript(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	h := shared.ParseBlobMap(out.Stdout)
	if r, done := j.afterRead(h, out); done {
		return r, nil
	}
	vgs, pvs := parseVgs(h.Blobs["out.vgs"]), j.parsePvs(h)
	for _, pv := range pvs {
		if slices.Contains(j.devs, pv.name) && pv.vg != "" && pv.vg != j.vg {
			return shared.Fail(fmt.Sprintf("Device %s is already in %s volume group.", pv.name, pv.vg)), nil
		}
	}
	this, ok := vgs[j.vg]
	if !ok {
		if !j.present {
			return lvgDone(false), nil
		}
		if j.check {
			return lvgDone(true), nil
		}
		var steps [][]string
		for _, d := range j.devs {
			steps = append(steps, j.pvcreate(d))
		}
		steps = append(steps, slices.Concat([]string{"vgcreate"}, strings.Fields(a.Str("vg_options")),
			[]string{"-s", a.Str("pesize"), j.vg}, j.devs))
		return j.apply(ctx, env, steps)
	}
	if !j.present {
		switch {
		case j.check:
			return lvgDone(true), nil
		case this.lvs == 0 || a.Bool("force"):
			return j.apply(ctx, env, [][]string{{"vgremove", "--force", j.vg}})
		}
		return shared.Fail(fmt.Sprintf("Refuse to remove non-empty volume group %s without force=true", j.vg)), nil
	}
	return j.extend(ctx, env, pvs)
}

// lvgDone is a result that changed or not.
func lvgDone(changed bool) tasks.Result {
	return tasks.Result{Changed: changed, Data: map[string]any{}}
}

// pvcreate is the command that makes dev a physical volume.
func (j *lvgJob) pvcreate(dev string) []string {
	return slices.Concat([]string{"pvcreate"}, strings.Fields(j.a.Str("pv_options")), []string{"-f", dev})
}

// extend resizes the group's volumes (pvresize) and adds and removes
// devices so that the group holds the task's.
func (j *lvgJob) extend(ctx context.Context, env *tasks.Env, pvs []lvgPV) (tasks.Result, error) {
	var current []string
	for _, pv := range pvs {
		if pv.vg == j.vg {
			current = append(current, pv.real)
		}
	}
	var steps [][]string
	changed := false
	if len(current) > 0 && j.a.Bool("pvresize") {
		grow, r, done, err := j.toGrow(ctx, env, current)
		if err != nil || done {
			return r, err
		}
		for _, d := range grow {
			if j.check {
				changed = true
			} else {
				steps = append(steps, []string{"pvresize", d})
			}
		}
	}
	add, remove := lvgMinus(j.devs, current), lvgMinus(current, j.devs)
	if len(add)+len(remove) > 0 {
		if j.check {
			changed = true
		} else {
			for _, d := range add {
				steps = append(steps, j.pvcreate(d))
			}
			if len(add) > 0 {
				steps = append(steps, slices.Concat([]string{"vgextend", j.vg}, add))
			}
			if len(remove) > 0 {
				steps = append(steps, slices.Concat([]string{"vgreduce", "--force", j.vg}, remove))
			}
		}
	}
	if len(steps) == 0 {
		return lvgDone(changed), nil
	}
	return j.apply(ctx, env, steps)
}

// lvgMinus is what of a is not in b, each once, sorted.
func lvgMinus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// toGrow reads each member's sizes with pvdisplay and returns those
// whose device has more than an extent beyond the volume.
func (j *lvgJob) toGrow(ctx context.Context, env *tasks.Env, devs []string) ([]string, tasks.Result, bool, error) {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + "_t_need pvresize\n_t_need pvdisplay\n")
	for i, d := range devs {
		for _, f := range []string{"dev_size", "pv_size", "pe_start", "vg_extent_size"} {
			fmt.Fprintf(&b, "_t_x %s.%d any \"$_t_b\" %s --units b --columns --noheadings --nosuffix -o %s\n", f, i, shared.Q(d), f)
		}
	}
	b.WriteString("echo; echo done=1\n")
	out, err := shared.Run(ctx, env, b.String(), nil)
	if err != nil {
		return nil, tasks.Result{}, true, err
	}
	h := shared.ParseBlobMap(out.Stdout)
	if r, done := j.afterRead(h, out); done {
		return nil, r, true, nil
	}
	var grow []string
	for i, d := range devs {
		var n [4]int
		for k, f := range []string{"dev_size", "pv_size", "pe_start", "vg_extent_size"} {
			s := strings.ReplaceAll(strings.TrimSpace(h.Blobs[fmt.Sprintf("out.%s.%d", f, i)]), " ", "")
			v, err := strconv.Atoi(s)
			if err != nil {
				return nil, shared.Fail(fmt.Sprintf("pvdisplay gave no %s for %s: %q", f, d, s)), true, nil
			}
			n[k] = v
		}
		if n[0]-(n[2]+n[1]) > n[3] {
			grow = append(grow, d)
		}
	}
	return grow, tasks.Result{}, false, nil
}

// lvgFailures are the module's messages for a command that failed, by
// the command's name (%[1]s the device or group, %[2]s the devices).
var lvgFailures = map[string]string{
	"pvcreate": "Creating physical volume '%[1]s' failed",
	"vgcreate": "Creating volume group '%[1]s' failed",
	"vgextend": "Unable to extend %[1]s by %[2]s.",
	"vgreduce": "Unable to reduce %[1]s by %[2]s.",
	"pvresize": "Failed executing pvresize command.",
	"vgremove": "Failed to remove volume group %[1]s",
}

// apply runs the steps in order, stopping at the first that fails.
func (j *lvgJob) apply(ctx context.Context, env *tasks.Env, steps [][]string) (tasks.Result, error) {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs)
	for i, s := range steps {
		fmt.Fprintf(&b, "_t_need %s\n_t_x s%d 0 \"$_t_b\"", s[0], i)
		for _, w := range s[1:] {
			b.WriteString(" " + shared.Q(w))
		}
		b.WriteString("\n")
	}
	b.WriteString("echo; echo done=1\n")
	out, err := shared.Run(ctx, env, b.String(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	h := shared.ParseBlobMap(out.Stdout)
	if id := h.V["failed"]; id != "" {
		i, _ := strconv.Atoi(strings.TrimPrefix(id, "s"))
		s := steps[i]
		subject, rest := j.vg, ""
		switch s[0] {
		case "pvcreate":
			subject = s[len(s)-1]
		case "vgextend", "vgreduce":
			rest = strings.Join(s[slices.Index(s, j.vg)+1:], " ")
		}
		return tasks.Result{Failed: true, Msg: fmt.Sprintf(lvgFailures[s[0]], subject, rest),
			Data: map[string]any{"rc": shared.DebAtoi(h.V["rc."+id], 1), "err": h.Blobs["err."+id]}}, nil
	}
	if h.V["fail"] != "" {
		return shared.Fail(h.V["fail"]), nil
	}
	if h.V["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	return lvgDone(true), nil
}
