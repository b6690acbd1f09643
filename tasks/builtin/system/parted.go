package system

import (
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// partedModule reads and changes a disk's partition table with `parted
// -s -m` as community.general's parted module does: state info returns
// the device and its partitions; present writes a label when the table
// differs, creates (or resizes) partition number, then sets its name and
// flags; absent removes it. Check mode runs nothing that writes. The
// device may be a block device or a regular file holding a disk image.
// One round trip reads the device, one more per parted script run.
type partedModule struct{}

var _ tasks.Module = (*partedModule)(nil)

var partedArgs = &tasks.Spec{
	Module: "parted",
	Params: []tasks.Param{
		{Name: "device", Required: true},
		{Name: "align", Default: "optimal", Choices: []string{"cylinder", "minimal", "none", "optimal", "undefined"}},
		{Name: "number", Kind: tasks.Int},
		{Name: "unit", Default: "KiB", Choices: partedUnits},
		{Name: "label", Default: "msdos", Choices: []string{"aix", "amiga", "bsd", "dvh", "gpt", "loop", "mac", "msdos", "pc98", "sun"}},
		{Name: "part_type", Default: "primary", Choices: []string{"extended", "logical", "primary"}},
		{Name: "part_start", Default: "0%"},
		{Name: "part_end", Default: "100%"},
		{Name: "fs_type"},
		{Name: "name"},
		{Name: "flags", Kind: tasks.List},
		{Name: "state", Default: "info", Choices: []string{"absent", "info", "present"}},
		{Name: "resize", Kind: tasks.Bool, Default: false},
	},
}

// partedScript locates parted; the Go side appends its _p_cmd calls.
//
//go:embed parted.sh
var partedScript string

// partedCmd is one parted run's outcome.
type partedCmd struct {
	kind     string
	rc       int
	out, err string
}

// partedJob is one task's state between round trips.
type partedJob struct {
	bin, device, unit, align string
}

// partedFail is a failure the module reports with its message and data.
type partedFail struct {
	msg  string
	data map[string]any
}

// Error returns the failure's message.
func (f *partedFail) Error() string { return f.msg }

// Run reads the device and applies the state.
func (partedModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := partedArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if st := a.Str("state"); (st == "present" || st == "absent") && !a.Has("number") {
		return tasks.Result{}, fmt.Errorf("state is %s but all of the following are missing: number", st)
	}
	j := &partedJob{device: a.Str("device"), unit: a.Str("unit"), align: a.Str("align")}
	res, err := j.apply(ctx, env, a)
	if err != nil {
		if f, ok := err.(*partedFail); ok {
			if f.data == nil {
				f.data = map[string]any{}
			}
			return tasks.Result{Failed: true, Msg: f.msg, Data: f.data}, nil
		}
		return tasks.Result{}, err
	}
	return res, nil
}

// Spec is the module's argument specification.
func (partedModule) Spec() *tasks.Spec { return partedArgs }

// partedConditions checks number and the sizes' formats as the module does
// once it found parted.
func partedConditions(a tasks.Values) error {
	if a.Has("number") && a.Int("number") < 1 {
		return &partedFail{msg: "The partition number must be greater then 0."}
	}
	for _, k := range []string{"part_start", "part_end"} {
		ok, pair, err := partedSizeOK(a.Str(k))
		if err != nil {
			return &partedFail{msg: err.Error()}
		}
		if !ok {
			return &partedFail{msg: "The argument '" + k + "' doesn't respect required format.The size unit is case sensitive.",
				data: map[string]any{"err": pair}}
		}
	}
	return nil
}

// apply runs the module: it reads the device, plans and runs the
// scripts, and returns the final state.
func (j *partedJob) apply(ctx context.Context, env *tasks.Env, a tasks.Values) (tasks.Result, error) {
	cond := partedConditions(a)
	var cmds [][]string
	if cond == nil {
		cmds = [][]string{{"v", "--version"}, j.infoCmd()}
	}
	runs, err := j.run(ctx, env, cmds)
	if err != nil {
		return tasks.Result{}, err
	}
	if cond != nil {
		return tasks.Result{}, cond
	}
	if err := partedVersion(runs[0]); err != nil {
		return tasks.Result{}, err
	}
	cur, err := j.info(runs)
	if err != nil {
		return tasks.Result{}, err
	}
	state, number, unit := a.Str("state"), a.Int("number"), j.unit
	final, changed, output := cur, false, ""
	switch state {
	case "info":
		output = "unit '" + unit + "' print "
	case "absent":
		if partedFind(cur.parts, number) != nil || env.Check {
			output, changed = fmt.Sprintf("rm %d ", number), true
			if !env.Check {
				if final, err = j.script(ctx, env, output); err != nil {
					return tasks.Result{}, err
				}
			}
		}
	case "present":
		script, err := partedPlan(a, cur)
		if err != nil {
			return tasks.Result{}, err
		}
		parts := cur.parts
		if script != "" {
			output, changed = script, true
			if !env.Check {
				if final, err = j.script(ctx, env, script); err != nil {
					return tasks.Result{}, err
				}
				parts = final.parts
			}
		}
		var second string
		if p := partedFind(parts, number); p != nil || env.Check {
			if changed && env.Check {
				p = map[string]any{"flags": []any{}}
			} else if p == nil {
				return tasks.Result{}, &partedFail{msg: "list index out of range"}
			}
			if a.Has("name") {
				if n, ok := p["name"].(string); !ok || n != a.Str("name") {
					second += fmt.Sprintf("name %d '\"%s\"' ", number, a.Str("name"))
				}
			}
			if fl := a.Strings("flags"); len(fl) > 0 {
				have, _ := p["flags"].([]any)
				second += partedFlagsScript(number, fl, have)
			}
		}
		if second != "" {
			second = "unit " + unit + " " + second
			output, changed = output+second, true
			if !env.Check {
				if final, err = j.script(ctx, env, second); err != nil {
					return tasks.Result{}, err
				}
			}
		}
	}
	parts := make([]any, len(final.parts))
	for i, p := range final.parts {
		parts[i] = p
	}
	return tasks.Result{Changed: changed, Data: map[string]any{"disk": final.disk, "partitions": parts,
		"script": strings.TrimSpace(output)}}, nil
}

// partedPlan is the first script of state present: a label when the
// table differs, the partition when missing (or the label is new), the
// partition's new end when resize asks for one.
func partedPlan(a tasks.Values, cur *partedInfo) (string, error) {
	number, unit, label := a.Int("number"), a.Str("unit"), a.Str("label")
	var script string
	mklabel := cur.disk["table"] != label
	if mklabel {
		script += "mklabel " + label + " "
	}
	if mklabel || partedFind(cur.parts, number) == nil {
		fs := ""
		if a.Has("fs_type") {
			fs = a.Str("fs_type") + " "
		}
		script += fmt.Sprintf("mkpart %s %s%s %s ", a.Str("part_type"), fs, a.Str("part_start"), a.Str("part_end"))
	}
	if unit != "" && script != "" {
		script = "unit " + unit + " " + script
	}
	if p := partedFind(cur.parts, number); a.Bool("resize") && p != nil {
		end, ok := p["end"].(float64)
		if !ok {
			return "", &partedFail{msg: "float() argument must be a string or a real number, not 'dict'"}
		}
		size, punit, err := partedParseUnit(a.Str("part_end"), unit)
		if err != nil {
			return "", &partedFail{msg: err.Error()}
		}
		want, _ := size.(float64)
		if punit == "%" {
			disk, _ := cur.disk["size"].(float64)
			want = float64(int64(float64(int64(disk)) * want / 100))
			punit = unit
		}
		if partedToBytes(end, unit) != partedToBytes(want, punit) {
			script += fmt.Sprintf("resizepart %d %s ", number, a.Str("part_end"))
		}
	}
	return script, nil
}

// partedFind returns partition number of parts, nil when there is none.
func partedFind(parts []map[string]any, number int) map[string]any {
	for _, p := range parts {
		if n, _ := p["num"].(int); n != 0 && n == number {
			return p
		}
	}
	return nil
}

// infoCmd is parted's arguments reading the device in the unit.
func (j *partedJob) infoCmd() []string {
	w, err := shlex.Split(fmt.Sprintf("-s -m %s -- unit '%s' print", j.device, j.unit))
	if err != nil {
		w = []string{"-s", "-m", j.device, "--", "unit", j.unit, "print"}
	}
	return append([]string{"i"}, w...)
}

// info parses the last run, the device's read, failing as the module
// does when parted failed for another reason than a missing label.
func (j *partedJob) info(runs []partedCmd) (*partedInfo, error) {
	r := runs[len(runs)-1]
	if r.kind != "i" {
		return nil, &partedFail{msg: "parted: no device information"}
	}
	if r.rc != 0 && !strings.Contains(r.err, "unrecognised disk label") {
		cmd := fmt.Sprintf("%s -s -m %s -- unit '%s' print", j.bin, j.device, j.unit)
		return nil, &partedFail{msg: "Error while getting device information with parted script: '" + cmd + "'",
			data: map[string]any{"rc": r.rc, "out": r.out, "err": r.err}}
	}
	inf, err := partedParseInfo(r.out, j.unit)
	if err != nil {
		return nil, &partedFail{msg: err.Error()}
	}
	return inf, nil
}

// script runs a parted script on the device, then reads it again.
func (j *partedJob) script(ctx context.Context, env *tasks.Env, script string) (*partedInfo, error) {
	opt := "-a " + j.align
	if j.align == "undefined" {
		opt = ""
	}
	command := fmt.Sprintf("%s -s -m %s %s -- %s", j.bin, opt, j.device, script)
	words, err := shlex.Split(command)
	if err != nil {
		return nil, &partedFail{msg: err.Error()}
	}
	runs, err := j.run(ctx, env, [][]string{append([]string{"s"}, words[1:]...), j.infoCmd()})
	if err != nil {
		return nil, err
	}
	if r := runs[0]; r.rc != 0 {
		return nil, &partedFail{msg: "Error while running parted script: " + strings.TrimSpace(command),
			data: map[string]any{"rc": r.rc, "out": r.out, "err": r.err}}
	}
	return j.info(runs)
}

// run finds parted on the host and runs the commands (each a kind then
// parted's arguments), stopping at the first that fails.
func (j *partedJob) run(ctx context.Context, env *tasks.Env, cmds [][]string) ([]partedCmd, error) {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + partedScript)
	for _, c := range cmds {
		b.WriteString("_p_cmd")
		for _, w := range c {
			b.WriteString(" " + shared.Q(w))
		}
		b.WriteString(" || exit 0\n")
	}
	res, err := shared.Run(ctx, env, b.String(), nil)
	if err != nil {
		return nil, err
	}
	bin, fail, runs := partedParseRuns(string(res.Stdout))
	if fail != "" {
		return nil, &partedFail{msg: fail}
	}
	if bin == "" || len(runs) == 0 && len(cmds) > 0 {
		return nil, &partedFail{msg: shared.ScriptError(res)}
	}
	j.bin = bin
	return runs, nil
}

// partedParseRuns reads the script's output: bin=, fail= and each
// command's rc, stdout and stderr.
func partedParseRuns(s string) (bin, fail string, runs []partedCmd) {
	var out, errb []string
	flush := func() {
		if len(runs) > 0 {
			r := &runs[len(runs)-1]
			if len(out) > 0 {
				r.out = strings.Join(out, "\n") + "\n"
			}
			if len(errb) > 0 {
				r.err = strings.Join(errb, "\n") + "\n"
			}
		}
		out, errb = nil, nil
	}
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "@@ "):
			flush()
			f := strings.Fields(l)
			if len(f) == 3 {
				rc, _ := strconv.Atoi(f[2])
				runs = append(runs, partedCmd{kind: f[1], rc: rc})
			}
		case strings.HasPrefix(l, "o ") && len(runs) > 0:
			out = append(out, l[2:])
		case strings.HasPrefix(l, "e ") && len(runs) > 0:
			errb = append(errb, l[2:])
		case len(runs) == 0 && strings.HasPrefix(l, "bin="):
			bin = l[4:]
		case len(runs) == 0 && strings.HasPrefix(l, "fail="):
			fail = l[5:]
		}
	}
	flush()
	return bin, fail, runs
}

// partedVersionRe reads parted's version from its first line.
var partedVersionRe = regexp.MustCompile(`^parted.+\s(\d+)\.(\d+)(?:\.(\d+))?`)

// partedVersion checks `parted --version`: the module fails when it
// cannot read one, and tender needs 3.1 or later, which reads a device
// without a label (older ones need the kernel's view of the device).
func partedVersion(r partedCmd) error {
	if r.kind != "v" || r.rc != 0 {
		return &partedFail{msg: "Failed to get parted version.", data: map[string]any{"rc": r.rc, "out": r.out, "err": r.err}}
	}
	first := ""
	for _, l := range strings.Split(r.out, "\n") {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
			break
		}
	}
	m := partedVersionRe.FindStringSubmatch(first)
	if m == nil {
		return &partedFail{msg: "Failed to get parted version.", data: map[string]any{"rc": 0, "out": r.out}}
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major < 3 || major == 3 && minor < 1 {
		return &partedFail{msg: fmt.Sprintf("parted %d.%d is too old: tender needs parted 3.1 or later", major, minor)}
	}
	return nil
}
