package system

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// lvolModule is community.general's lvol: it creates, resizes,
// (de)activates and removes LVM logical volumes, thin pools, thin
// volumes and snapshots with the host's LVM tools. One round trip reads
// LVM's version and the group's `vgs` and `lvs` in the task's unit; a
// second runs lvcreate, lvremove, lvextend or lvreduce, then lvchange,
// as the module decides. Check mode runs the same commands with LVM's
// --test.
type lvolModule struct{}

var _ tasks.Module = lvolModule{}

var lvolArgs = &tasks.Spec{
	Module: "lvol",
	Params: []tasks.Param{
		{Name: "vg", Required: true},
		{Name: "lv"},
		{Name: "size"},
		{Name: "opts"},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "force", Kind: tasks.Bool, Default: false},
		{Name: "shrink", Kind: tasks.Bool, Default: true},
		{Name: "active", Kind: tasks.Bool, Default: true},
		{Name: "snapshot"},
		{Name: "pvs"},
		{Name: "resizefs", Kind: tasks.Bool, Default: false},
		{Name: "thinpool"},
	},
	RequiredOneOf: [][]string{{"lv", "thinpool"}},
}

// Spec returns lvol's parameters.
func (lvolModule) Spec() *tasks.Spec { return lvolArgs }

// lvolSize is the size option as the module reads it.
type lvolSize struct {
	given   bool
	op      string // "+", "-" or ""
	text    string // the size without its operator and unit
	unit    string // the unit given ("m" when none; "" for a percentage)
	opt     string // "L" (--size) or "l" (--extents)
	percent int
	whole   string // VG, PVS or FREE for a percentage, else ""
	crash   string // the exception the module dies of reading it
}

// readUnit is the unit vgs and lvs report sizes in.
func (s lvolSize) readUnit() string {
	if s.opt == "l" {
		return "m"
	}
	return strings.ToLower(s.unit)
}

// parseLvolSize reads size as the module does, returning its message for
// a size it refuses.
func parseLvolSize(size string) (lvolSize, string) {
	s := lvolSize{given: size != "", unit: "m", opt: "L", text: size}
	if !s.given {
		return s, ""
	}
	if strings.HasPrefix(s.text, "+") || strings.HasPrefix(s.text, "-") {
		s.op, s.text = s.text[:1], s.text[1:]
	}
	if pct, whole, ok := strings.Cut(s.text, "%"); ok {
		n, err := pyfmt.Int(pct)
		if err != nil {
			s.crash = "ValueError: " + err.Error()
			return s, ""
		}
		if n > 100 {
			return s, "Size percentage cannot be larger than 100%"
		}
		switch whole {
		case "ORIGIN":
			return s, "Snapshot Volumes are not supported"
		case "VG", "PVS", "FREE":
		default:
			return s, "Specify extents as a percentage of VG|PVS|FREE"
		}
		s.percent, s.whole, s.opt, s.unit = n, whole, "l", ""
		return s, ""
	}
	if s.text == "" {
		s.crash = "IndexError: string index out of range"
		return s, ""
	}
	if strings.ContainsRune("bskmgtpe", unicode.ToLower(rune(s.text[len(s.text)-1]))) {
		s.unit, s.text = s.text[len(s.text)-1:], s.text[:len(s.text)-1]
	}
	if _, ok := expr.PyFloat(s.text); !ok || s.text == "" || !unicode.IsDigit([]rune(s.text)[0]) {
		return s, fmt.Sprintf("Bad size specification of '%s'", s.text)
	}
	return s, ""
}

// lvolJob is one task.
type lvolJob struct {
	a        tasks.Values
	check    bool
	vg, lv   string
	pool     string // thinpool
	snapshot string
	size     lvolSize
	yes      string // "--yes" where LVM takes it
}

// lvmVersion matches `lvm version`'s first line as the module does.
var lvmVersion = regexp.MustCompile(`LVM version:\s+(\d+)\.(\d+)\.(\d+).*(\d{4}-\d{2}-\d{2})`)

// Run reads the group's volumes and changes them.
func (lvolModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := lvolArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := &lvolJob{a: a, check: env.Check, vg: a.Str("vg"), lv: a.Str("lv"), pool: a.Str("thinpool"), snapshot: a.Str("snapshot")}
	size, bad := parseLvolSize(a.Str("size"))
	j.size = size
	out, err := shared.Run(ctx, env, j.readScript(bad == "" && size.crash == ""), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	h := shared.ParseBlobMap(out.Stdout)
	if h.V["fail"] != "" {
		return shared.Fail(h.V["fail"]), nil
	}
	m := lvmVersion.FindStringSubmatch(h.Blobs["out.ver"])
	if h.V["rc.ver"] != "0" || m == nil {
		return shared.Fail("Failed to get LVM version number"), nil
	}
	if v := lvolVersion(m[1], m[2], m[3]); v >= lvolVersion("2", "2", "99") {
		j.yes = "--yes"
	}
	if bad != "" {
		return shared.Fail(bad), nil
	}
	if size.crash != "" {
		return pyCrash(size.crash)
	}
	if _, err := shlex.Split(j.vg); err != nil {
		return pyCrash("ValueError: " + err.Error())
	}
	if h.V["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	for _, id := range []string{"vgs", "lvs"} {
		if h.V["rc."+id] == "0" {
			continue
		}
		if a.Str("state") == "absent" {
			msg := fmt.Sprintf("Volume group %s does not exist.", j.vg)
			return tasks.Result{Data: map[string]any{"stdout": msg, "stdout_lines": shared.Lines(msg)}}, nil
		}
		return tasks.Result{Failed: true, Msg: fmt.Sprintf("Volume group %s does not exist.", j.vg),
			Data: map[string]any{"rc": shared.DebAtoi(h.V["rc."+id], 1), "err": h.Blobs["err."+id]}}, nil
	}
	vg, ok := parseLvolVg(h.Blobs["out.vgs"])
	if !ok {
		return shared.Fail(fmt.Sprintf("vgs gave no sizes for volume group %s: %q", j.vg, h.Blobs["out.vgs"])), nil
	}
	lvs, err := parseLvolLvs(h.Blobs["out.lvs"])
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	p := j.plan(vg, lvs)
	if p.done {
		return p.result, nil
	}
	return j.apply(ctx, env, p)
}

// lvolVersion is the module's version number of LVM's major.minor.patch.
func lvolVersion(major, minor, patch string) int {
	a, _ := strconv.Atoi(major)
	b, _ := strconv.Atoi(minor)
	c, _ := strconv.Atoi(patch)
	return a*1000*1000 + b*1000 + c
}

// readScript reads LVM's version and, when the size is good, the group
// and its volumes in the size's unit, in the C locale as the module does.
func (j *lvolJob) readScript(read bool) string {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + lvolLocale)
	b.WriteString("_t_need lvm\n_t_x ver any \"$_t_b\" version\n")
	if read {
		u := shared.Q(j.size.readUnit())
		b.WriteString("_t_need vgs\n_t_x vgs any \"$_t_b\" --noheadings --nosuffix -o vg_name,size,free,vg_extent_size --units " + u + " --separator ';' " + lvolWords(j.vg) + "\n")
		b.WriteString("_t_need lvs\n_t_x lvs any \"$_t_b\" -a --noheadings --nosuffix -o lv_name,size,lv_attr --units " + u + " --separator ';' " + lvolWords(j.vg) + "\n")
	}
	b.WriteString("echo; echo done=1\n")
	return b.String()
}

// lvolLocale runs LVM's tools in the C locale, as the module does.
const lvolLocale = "LANG=C LC_ALL=C LC_MESSAGES=C LC_CTYPE=C\nexport LANG LC_ALL LC_MESSAGES LC_CTYPE\n"

// lvolWords splits s as the module's command line does (shlex) and
// quotes each word for sh; a quote left open stays one word.
func lvolWords(s string) string {
	words, err := shlex.Split(s)
	if err != nil {
		words = []string{s}
	}
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shared.Q(w)
	}
	return strings.Join(q, " ")
}

// lvolVG is the group as vgs reports it, in the read unit.
type lvolVG struct{ size, free, extent float64 }

// parseLvolVg reads vgs' first line: name;size;free;extent size.
func parseLvolVg(out string) (lvolVG, bool) {
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	parts := strings.Split(strings.TrimSpace(line), ";")
	if len(parts) < 4 {
		return lvolVG{}, false
	}
	var v [3]float64
	for i := range v {
		f, ok := expr.PyFloat(parts[i+1])
		if !ok {
			return lvolVG{}, false
		}
		v[i] = f
	}
	return lvolVG{size: v[0], free: v[1], extent: v[2]}, true
}

// lvolLV is a logical volume as lvs reports it.
type lvolLV struct {
	name                      string
	size                      float64
	active, thinpool, thinvol bool
}

// parseLvolLvs reads lvs' lines: name;size;attributes, a hidden
// volume's brackets dropped.
func parseLvolLvs(out string) ([]lvolLV, error) {
	var lvs []lvolLV
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		parts := strings.Split(strings.TrimSpace(line), ";")
		if len(parts) < 3 || len(parts[2]) < 5 {
			return nil, fmt.Errorf("lvs gave a line tender cannot read: %q", line)
		}
		size, ok := expr.PyFloat(parts[1])
		if !ok {
			return nil, fmt.Errorf("lvs gave a size tender cannot read: %q", line)
		}
		lvs = append(lvs, lvolLV{name: strings.NewReplacer("[", "", "]", "").Replace(parts[0]), size: size,
			active: parts[2][4] == 'a', thinpool: parts[2][0] == 't', thinvol: parts[2][0] == 'V'})
	}
	return lvs, nil
}
