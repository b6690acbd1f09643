package system

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// readScript resolves the task's devices (and, for state present, checks
// that they exist), then runs pvs (present only) and vgs as the module
// does, with dmsetup naming the device-mapper volumes pvs lists.
func (j *lvgJob) readScript() string {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + lvgFuncs)
	check := "0"
	if j.present {
		check = "1"
	}
	for i, p := range j.pvs {
		fmt.Fprintf(&b, "_l_dev %d %s %s\n", i, shared.Q(p), check)
	}
	if j.present {
		// pvs --select names each device by its real path and as given,
		// and the group
		b.WriteString("_t_need pvs\n_l_sel=")
		for i := range j.pvs {
			fmt.Fprintf(&b, "\"pv_name = $_l_rp%d || \"", i)
		}
		for _, p := range j.pvs {
			b.WriteString(shared.Q("pv_name = " + p + " || "))
		}
		b.WriteString(shared.Q("vg_name = "+j.vg) + "\n")
		b.WriteString("_t_x pvs 0 \"$_t_b\" --noheadings -o pv_name,vg_name --separator ';' --select \"$_l_sel\"\n")
		b.WriteString("cp \"$_t_d/xo\" \"$_t_d/pvs\"\n_l_dm\n")
	}
	b.WriteString("_t_need vgs\n_t_x vgs 0 \"$_t_b\" --noheadings -o vg_name,pv_count,lv_count --separator ';'\n")
	b.WriteString("echo; echo done=1\n")
	return b.String()
}

// lvgReadFailures are the module's messages for a reading that failed.
var lvgReadFailures = map[string]string{
	"pvs": "Failed executing pvs command.",
	"vgs": "Failed executing vgs command.",
}

// afterRead ends the task where the reading says so, and keeps the
// devices' real paths.
func (j *lvgJob) afterRead(h shared.Blobs, out transport.Result) (tasks.Result, bool) {
	v := h.V
	if v["fail"] != "" {
		return shared.Fail(v["fail"]), true
	}
	if j.devs == nil {
		j.devs = []string{}
		for i := range j.pvs {
			if rp, ok := h.Blobs[fmt.Sprintf("rp.%d", i)]; ok {
				j.devs = append(j.devs, rp)
			}
		}
	}
	if n := v["nodev"]; n != "" {
		i, _ := strconv.Atoi(n)
		return shared.Fail(fmt.Sprintf("Device %s not found.", j.devs[i])), true
	}
	if id := v["failed"]; id != "" {
		msg := lvgReadFailures[id]
		if strings.HasPrefix(id, "dm.") {
			msg = "Failed executing dmsetup command."
		}
		if msg == "" {
			msg = "the host's LVM tools failed"
		}
		return tasks.Result{Failed: true, Msg: msg,
			Data: map[string]any{"rc": shared.DebAtoi(v["rc."+id], 1), "err": h.Blobs["err."+id]}}, true
	}
	if v["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), true
	}
	return tasks.Result{}, false
}

// lvgVG is a volume group as vgs lists it.
type lvgVG struct{ pvs, lvs int }

// parseVgs reads vgs' lines: name;pv_count;lv_count.
func parseVgs(out string) map[string]lvgVG {
	vgs := map[string]lvgVG{}
	for _, line := range strings.Split(out, "\n") {
		parts := strings.Split(strings.TrimSpace(line), ";")
		if len(parts) < 3 {
			continue
		}
		pv, _ := strconv.Atoi(parts[1])
		lv, _ := strconv.Atoi(parts[2])
		if _, seen := vgs[parts[0]]; !seen {
			vgs[parts[0]] = lvgVG{pvs: pv, lvs: lv}
		}
	}
	return vgs
}

// lvgPV is a physical volume as pvs lists it, with its real path.
type lvgPV struct{ name, vg, real string }

// parsePvs reads pvs' lines (name;vg), each /dev/dm-N named by
// /dev/mapper/ as dmsetup named it.
func (j *lvgJob) parsePvs(h shared.Blobs) []lvgPV {
	var pvs []lvgPV
	for i, line := range strings.Split(h.Blobs["out.pvs"], "\n") {
		parts := strings.Split(strings.TrimSpace(line), ";")
		if len(parts) < 2 {
			continue
		}
		name := parts[0]
		if dm, ok := h.Blobs[fmt.Sprintf("out.dm.%d", i+1)]; ok && strings.HasPrefix(name, "/dev/dm-") {
			name = "/dev/mapper/" + strings.TrimRight(dm, " \t\n\r\f\v")
		}
		real, ok := h.Blobs[fmt.Sprintf("real.%d", i+1)]
		if !ok {
			real = name
		}
		pvs = append(pvs, lvgPV{name: name, vg: parts[1], real: real})
	}
	return pvs
}
