package system

import (
	"fmt"
	"math"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// lvolPlan is what the module decided from the reading: a result, or a
// command to run (lvcreate, lvremove, lvextend or lvreduce) and then, for
// an existing volume, lvchange.
type lvolPlan struct {
	done   bool
	result tasks.Result
	kind   string  // create, remove, resize or "" (lvchange only)
	cmd    string  // the command line, as the module writes it
	this   *lvolLV // the volume the task is about, when it exists
	msg    string  // the failure message of cmd
}

// lvolEnd is a plan that ends with r.
func lvolEnd(r tasks.Result) lvolPlan { return lvolPlan{done: true, result: r} }

// plan follows the module's decisions on the group and its volumes.
func (j *lvolJob) plan(vg lvolVG, lvs []lvolLV) lvolPlan {
	check, failed := j.target(lvs)
	if failed != "" {
		return lvolEnd(shared.Fail(failed))
	}
	var this *lvolLV
	for i := range lvs {
		if lvs[i].name == check || lvs[i].name == check[strings.LastIndex(check, "/")+1:] {
			this = &lvs[i]
			break
		}
	}
	if this == nil {
		if j.a.Str("state") != "present" {
			return lvolEnd(tasks.Result{Data: map[string]any{"msg": ""}})
		}
		return j.create(lvs)
	}
	if j.a.Str("state") == "absent" {
		if !j.a.Bool("force") {
			return lvolEnd(shared.Fail(fmt.Sprintf("Sorry, no removal of logical volume %s without force=true.", this.name)))
		}
		return lvolPlan{kind: "remove", this: this, cmd: "lvremove " + j.testOpt() + " --force " + j.vg + "/" + this.name,
			msg: "Failed to remove logical volume " + j.noneStr(j.lv)}
	}
	if !j.size.given {
		return lvolPlan{this: this}
	}
	if j.size.opt == "l" {
		return j.resizeExtents(vg, this)
	}
	return j.resizeAbsolute(this)
}

// target is the volume the task checks for (the snapshot, the thin
// volume, the pool or the volume), after the module's preconditions.
func (j *lvolJob) target(lvs []lvolLV) (string, string) {
	switch {
	case j.snapshot != "":
		for _, l := range lvs {
			if l.name == j.lv || l.name == j.pool {
				if !l.thinpool && j.pool == "" {
					return j.snapshot, ""
				}
				return "", "Snapshots of thin pool LVs are not supported."
			}
		}
		return "", fmt.Sprintf("Snapshot origin LV %s does not exist in volume group %s.", j.noneStr(j.lv), j.vg)
	case j.pool != "" && j.lv != "":
		for _, l := range lvs {
			if l.name == j.pool {
				return j.lv, ""
			}
		}
		return "", fmt.Sprintf("Thin pool LV %s does not exist in volume group %s.", j.pool, j.vg)
	case j.pool != "":
		return j.pool, ""
	}
	return j.lv, ""
}

// noneStr is s as Python formats an option not given.
func (j *lvolJob) noneStr(s string) string {
	if s == "" {
		return "None"
	}
	return s
}

// testOpt is LVM's --test in check mode.
func (j *lvolJob) testOpt() string {
	if j.check {
		return "--test"
	}
	return ""
}

// create plans lvcreate for a volume, snapshot, thin volume or pool.
func (j *lvolJob) create(lvs []lvolLV) lvolPlan {
	s := j.size
	if s.op != "" && (s.op == "-" || s.whole == "") {
		if s.op == "-" {
			return lvolEnd(shared.Fail(fmt.Sprintf("Bad size specification of '%s%s' for creating LV", s.op, s.text)))
		}
		r, _ := pyCrash("NameError: name 'size_whole' is not defined")
		return lvolEnd(r)
	}
	if !s.given {
		ok := false
		for _, l := range lvs {
			if l.name == j.lv && l.thinvol && j.snapshot != "" {
				ok = true
				break
			}
		}
		if !ok {
			return lvolEnd(shared.Fail("No size given."))
		}
	}
	opts, vgLv := j.a.Str("opts"), j.vg+"/"+j.noneStr(j.lv)
	sz := "-" + s.opt + " " + s.text + s.unit
	var cmd string
	switch {
	case j.snapshot != "" && s.given:
		cmd = fmt.Sprintf("lvcreate %s %s %s -s -n %s %s %s", j.testOpt(), j.yes, sz, j.snapshot, opts, vgLv)
	case j.snapshot != "":
		cmd = fmt.Sprintf("lvcreate %s %s -s -n %s %s %s", j.testOpt(), j.yes, j.snapshot, opts, vgLv)
	case j.pool != "" && j.lv != "":
		if s.opt == "l" {
			return lvolEnd(shared.Fail("Thin volume sizing with percentage not supported."))
		}
		cmd = fmt.Sprintf("lvcreate %s %s -n %s -V %s%s %s -T %s/%s", j.testOpt(), j.yes, j.lv, s.text, s.unit, opts, j.vg, j.pool)
	case j.pool != "":
		cmd = fmt.Sprintf("lvcreate %s %s %s %s -T %s/%s", j.testOpt(), j.yes, sz, opts, j.vg, j.pool)
	default:
		cmd = fmt.Sprintf("lvcreate %s %s -n %s %s %s %s %s", j.testOpt(), j.yes, j.lv, sz, opts, j.vg, j.pvs())
	}
	return lvolPlan{kind: "create", cmd: cmd, msg: fmt.Sprintf("Creating logical volume '%s' failed", j.noneStr(j.lv))}
}

// pvs is the pvs option with its commas as blanks.
func (j *lvolJob) pvs() string { return strings.ReplaceAll(j.a.Str("pvs"), ",", " ") }

// pyMod is Python's float modulo: the result takes the divisor's sign.
func pyMod(a, b float64) float64 {
	r := math.Mod(a, b)
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// resizeExtents plans lvextend or lvreduce for a percentage of the
// group, its physical volumes or its free space.
func (j *lvolJob) resizeExtents(vg lvolVG, this *lvolLV) lvolPlan {
	s := j.size
	want := float64(s.percent) * vg.free / 100
	if s.whole == "VG" || s.whole == "PVS" {
		want = float64(s.percent) * vg.size / 100
	}
	switch s.op {
	case "+":
		want += this.size
	case "-":
		want = this.size - want
	}
	want -= pyMod(want, vg.extent)
	tool := ""
	switch {
	case this.size < want:
		if vg.free > 0 && vg.free >= want-this.size {
			tool = "lvextend"
		} else {
			return lvolEnd(shared.Fail(fmt.Sprintf("Logical Volume %s could not be extended. Not enough free space left (%s%s required / %s%s available)",
				this.name, pyfmt.Float(want-this.size), s.readUnit(), pyfmt.Float(vg.free), s.readUnit())))
		}
	case j.a.Bool("shrink") && this.size > want+vg.extent:
		switch {
		case want < 1:
			return lvolEnd(shared.Fail(fmt.Sprintf("Sorry, no shrinking of %s to 0 permitted.", this.name)))
		case !j.a.Bool("force"):
			return lvolEnd(shared.Fail(fmt.Sprintf("Sorry, no shrinking of %s without force=true", this.name)))
		}
		tool = "lvreduce --force"
	}
	return j.resize(tool, this)
}

// resizeAbsolute plans lvextend or lvreduce for a size in a unit.
func (j *lvolJob) resizeAbsolute(this *lvolLV) lvolPlan {
	s := j.size
	n, _ := expr.PyFloat(s.text)
	tool := ""
	switch {
	case n > this.size || s.op == "+":
		tool = "lvextend"
	case j.a.Bool("shrink") && n < this.size || s.op == "-":
		switch {
		case n == 0:
			return lvolEnd(shared.Fail(fmt.Sprintf("Sorry, no shrinking of %s to 0 permitted.", this.name)))
		case !j.a.Bool("force"):
			return lvolEnd(shared.Fail(fmt.Sprintf("Sorry, no shrinking of %s without force=true.", this.name)))
		}
		tool = "lvreduce --force"
	}
	return j.resize(tool, this)
}

// resize is the lvextend or lvreduce command line, or lvchange alone
// when the size is right.
func (j *lvolJob) resize(tool string, this *lvolLV) lvolPlan {
	if tool == "" {
		return lvolPlan{this: this}
	}
	if j.a.Bool("resizefs") {
		tool += " --resizefs"
	}
	s := j.size
	cmd := fmt.Sprintf("%s %s -%s %s%s%s %s/%s %s", tool, j.testOpt(), s.opt, s.op, s.text, s.unit, j.vg, this.name, j.pvs())
	return lvolPlan{kind: "resize", this: this, cmd: cmd,
		msg: fmt.Sprintf("Unable to resize %s to %s%s", j.noneStr(j.lv), s.text, s.unit)}
}
