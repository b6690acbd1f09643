package system

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

func TestLvolSize(t *testing.T) {
	cases := []struct {
		in   string
		want lvolSize
		bad  string
	}{
		{"", lvolSize{unit: "m", opt: "L"}, ""},
		{"512", lvolSize{given: true, text: "512", unit: "m", opt: "L"}, ""},
		{"0.25G", lvolSize{given: true, text: "0.25", unit: "G", opt: "L"}, ""},
		{"+64", lvolSize{given: true, op: "+", text: "64", unit: "m", opt: "L"}, ""},
		{"-100%FREE", lvolSize{given: true, op: "-", text: "100%FREE", opt: "l", percent: 100, whole: "FREE"}, ""},
		{"1_0s", lvolSize{given: true, text: "1_0", unit: "s", opt: "L"}, ""},
		{"150%VG", lvolSize{}, "Size percentage cannot be larger than 100%"},
		{"10%ORIGIN", lvolSize{}, "Snapshot Volumes are not supported"},
		{"10%LV", lvolSize{}, "Specify extents as a percentage of VG|PVS|FREE"},
		{".5g", lvolSize{}, "Bad size specification of '.5'"},
		{"12q", lvolSize{}, "Bad size specification of '12q'"},
		{"g", lvolSize{}, "Bad size specification of ''"},
		{"+", lvolSize{given: true, op: "+", unit: "m", opt: "L", crash: "IndexError: string index out of range"}, ""},
		{"x%VG", lvolSize{given: true, text: "x%VG", unit: "m", opt: "L", crash: "ValueError: invalid literal for int() with base 10: 'x'"}, ""},
		{"0x10", lvolSize{}, "Bad size specification of '0x10'"},
	}
	for _, c := range cases {
		got, bad := parseLvolSize(c.in)
		if bad != c.bad || (bad == "" && got != c.want) {
			t.Errorf("%q: %+v %q, want %+v %q", c.in, got, bad, c.want, c.bad)
		}
	}
	if s, _ := parseLvolSize("50%PVS"); s.readUnit() != "m" {
		t.Errorf("a percentage reads in MiB: %q", s.readUnit())
	}
	if s, _ := parseLvolSize("2T"); s.readUnit() != "t" {
		t.Errorf("a unit reads lowercased: %q", s.readUnit())
	}
}

func TestLvolParse(t *testing.T) {
	vg, ok := parseLvolVg("  vg1;2040.00;1908.00;4.00\n")
	if !ok || vg != (lvolVG{size: 2040, free: 1908, extent: 4}) {
		t.Errorf("vgs: %+v %v", vg, ok)
	}
	lvs, err := parseLvolLvs("  [lvol0_pmspare];4.00;ewi-------\n  tp;64.00;twi-aotz--\n  tv;32.00;Vwi---tz--\n")
	if err != nil || len(lvs) != 3 {
		t.Fatalf("lvs: %+v %v", lvs, err)
	}
	if lvs[0].name != "lvol0_pmspare" || lvs[0].active || !lvs[1].thinpool || !lvs[1].active || !lvs[2].thinvol || lvs[2].active {
		t.Errorf("lvs: %+v", lvs)
	}
	if _, err := parseLvolLvs("x;1;ab\n"); err == nil {
		t.Error("a short attribute field is refused")
	}
	if got := pyMod(-10, 4); got != 2 {
		t.Errorf("pyMod(-10, 4) = %v, want Python's 2", got)
	}
}

// lvolTestJob is a job for args as Run makes it.
func lvolTestJob(t *testing.T, check bool, args tasks.Args) *lvolJob {
	t.Helper()
	a, err := lvolArgs.Decode(args)
	if err != nil {
		t.Fatal(err)
	}
	j := &lvolJob{a: a, check: check, vg: a.Str("vg"), lv: a.Str("lv"), pool: a.Str("thinpool"), snapshot: a.Str("snapshot"), yes: "--yes"}
	j.size, _ = parseLvolSize(a.Str("size"))
	return j
}

func TestLvolPlan(t *testing.T) {
	vg := lvolVG{size: 2040, free: 1900, extent: 4}
	lvs := []lvolLV{{name: "l1", size: 128, active: true}, {name: "tp", size: 64, thinpool: true, active: true}, {name: "tv", size: 32, thinvol: true}}
	cases := []struct {
		args  tasks.Args
		check bool
		cmd   string // the command planned, or the failure's message
	}{
		{tasks.Args{"vg": "vg1", "lv": "l2", "size": "64", "pvs": "/dev/vdb,/dev/vdc", "opts": "--addtag 'a b'"}, false,
			"lvcreate  --yes -n l2 -L 64m --addtag 'a b' vg1 /dev/vdb /dev/vdc"},
		{tasks.Args{"vg": "vg1", "lv": "l2", "size": "64"}, true, "lvcreate --test --yes -n l2 -L 64m  vg1 "},
		{tasks.Args{"vg": "vg1", "lv": "l2"}, false, "No size given."},
		{tasks.Args{"vg": "vg1", "lv": "l2", "size": "-8"}, false, "Bad size specification of '-8' for creating LV"},
		{tasks.Args{"vg": "vg1", "lv": "tv", "snapshot": "s"}, false, "lvcreate  --yes -s -n s  vg1/tv"},
		{tasks.Args{"vg": "vg1", "lv": "tp", "snapshot": "s"}, false, "Snapshots of thin pool LVs are not supported."},
		{tasks.Args{"vg": "vg1", "lv": "x", "snapshot": "s", "size": "8"}, false, "Snapshot origin LV x does not exist in volume group vg1."},
		{tasks.Args{"vg": "vg1", "lv": "t2", "thinpool": "tp", "size": "1g"}, false, "lvcreate  --yes -n t2 -V 1g  -T vg1/tp"},
		{tasks.Args{"vg": "vg1", "lv": "t2", "thinpool": "tp", "size": "5%VG"}, false, "Thin volume sizing with percentage not supported."},
		{tasks.Args{"vg": "vg1", "lv": "t2", "thinpool": "nope", "size": "8"}, false, "Thin pool LV nope does not exist in volume group vg1."},
		{tasks.Args{"vg": "vg1", "thinpool": "tp2", "size": "64"}, false, "lvcreate  --yes -L 64m  -T vg1/tp2"},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "256", "resizefs": true}, false, "lvextend --resizefs  -L 256m vg1/l1 "},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "64"}, false, "Sorry, no shrinking of l1 without force=true."},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "64", "force": true}, true, "lvreduce --force --test -L 64m vg1/l1 "},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "64", "shrink": false}, false, ""},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "0", "force": true}, false, "Sorry, no shrinking of l1 to 0 permitted."},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "+0"}, false, "lvextend  -L +0m vg1/l1 "},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "100%VG"}, false,
			"Logical Volume l1 could not be extended. Not enough free space left (1912.0m required / 1900.0m available)"},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "5%VG"}, false, "Sorry, no shrinking of l1 without force=true"},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "-50%FREE", "force": true}, false, "Sorry, no shrinking of l1 to 0 permitted."},
		{tasks.Args{"vg": "vg1", "lv": "l1", "size": "+1%FREE"}, false, "lvextend  -l +1%FREE vg1/l1 "},
		{tasks.Args{"vg": "vg1", "lv": "l1", "state": "absent"}, false, "Sorry, no removal of logical volume l1 without force=true."},
		{tasks.Args{"vg": "vg1", "lv": "l1", "state": "absent", "force": true}, true, "lvremove --test --force vg1/l1"},
		{tasks.Args{"vg": "vg1", "lv": "vg1/l1"}, false, ""},
	}
	for _, c := range cases {
		p := lvolTestJob(t, c.check, c.args).plan(vg, lvs)
		got := p.cmd
		if p.done {
			got = p.result.Msg
		}
		if got != c.cmd {
			t.Errorf("%v: %q, want %q", c.args, got, c.cmd)
		}
	}
	p := lvolTestJob(t, false, tasks.Args{"vg": "vg1", "lv": "gone", "state": "absent"}).plan(vg, lvs)
	if !p.done || p.result.Failed || p.result.Data["msg"] != "" {
		t.Errorf("an absent volume already absent: %+v", p)
	}
}

func TestLvolReadScript(t *testing.T) {
	j := lvolTestJob(t, true, tasks.Args{"vg": "vg1", "lv": "l1", "size": "+8", "active": false})
	s := j.readScript(true)
	for _, want := range []string{"LC_ALL=C", "_t_x ver any \"$_t_b\" version\n",
		"--units m --separator ';' vg1\n", "_t_x lvs any \"$_t_b\" -a --noheadings"} {
		if !strings.Contains(s, want) {
			t.Errorf("the read script lacks %q", want)
		}
	}
	if s := j.readScript(false); strings.Contains(s, "vgs") {
		t.Error("a bad size reads no group")
	}
}

func TestLvolOutcome(t *testing.T) {
	this := &lvolLV{name: "l1", size: 128}
	resize := lvolPlan{kind: "resize", cmd: "lvextend -L 256m vg1/l1", this: this, msg: "Unable to resize l1 to 256m"}
	blobs := func(v map[string]string, b map[string]string) shared.Blobs { return shared.Blobs{V: v, Blobs: b} }
	j := lvolTestJob(t, false, tasks.Args{"vg": "vg1", "lv": "l1", "size": "256"})
	r := j.outcome(resize, blobs(map[string]string{"rc.m": "0", "rc.c": "0"}, nil))
	if !r.Changed || r.Failed || r.Data["size"] != 128.0 || r.Data["lv"] != "l1" {
		t.Errorf("grown and activated: %+v", r)
	}
	r = j.outcome(resize, blobs(map[string]string{"rc.m": "5"}, map[string]string{"err.m": "  New size (32 extents) matches existing size (32 extents).\n"}))
	if r.Changed || r.Failed || r.Data["vg"] != "vg1" {
		t.Errorf("the same size: %+v", r)
	}
	r = j.outcome(resize, blobs(map[string]string{"rc.m": "5"}, map[string]string{"err.m": "New size given (1 extents) not larger than existing size (2 extents)"}))
	if r.Changed || r.Failed || r.Data["msg"] != "Original size is larger than requested size" || r.Data["err"] == "" {
		t.Errorf("smaller: %+v", r)
	}
	r = j.outcome(resize, blobs(map[string]string{"rc.m": "0"}, map[string]string{"out.m": "  Reached maximum COW size 128.00 MiB (32 extents).\n"}))
	if !r.Failed || r.Msg != "Unable to resize l1 to 256m" || r.Data["out"] == "" {
		t.Errorf("a snapshot at its origin's size: %+v", r)
	}
	r = j.outcome(resize, blobs(map[string]string{"rc.m": "3"}, map[string]string{"err.m": "no room"}))
	if !r.Failed || r.Data["rc"] != 3 || r.Data["err"] != "no room" {
		t.Errorf("lvextend failed: %+v", r)
	}
	j = lvolTestJob(t, false, tasks.Args{"vg": "vg1", "lv": "l1", "active": false})
	r = j.outcome(lvolPlan{this: &lvolLV{name: "l1", active: true}}, blobs(map[string]string{"rc.c": "0"}, nil))
	if !r.Changed {
		t.Errorf("deactivated: %+v", r)
	}
	r = j.outcome(lvolPlan{this: &lvolLV{name: "l1"}}, blobs(map[string]string{"rc.c": "5"}, nil))
	if !r.Failed || r.Msg != "Failed to deactivate logical volume l1" {
		t.Errorf("lvchange failed: %+v", r)
	}
}
