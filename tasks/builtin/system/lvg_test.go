package system

import (
	"slices"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

func TestLvgParse(t *testing.T) {
	vgs := parseVgs("  vg1;2;0\n  data;1;3\n")
	if vgs["vg1"] != (lvgVG{pvs: 2, lvs: 0}) || vgs["data"] != (lvgVG{pvs: 1, lvs: 3}) || len(vgs) != 2 {
		t.Errorf("vgs: %+v", vgs)
	}
	j := &lvgJob{vg: "vg1"}
	h := shared.Blobs{Blobs: map[string]string{
		"out.pvs":  "  /dev/vdb;vg1\n  /dev/dm-3;\n  /dev/vdc;other\n",
		"out.dm.2": "crypt-a\n",
		"real.1":   "/dev/vdb", "real.2": "/dev/dm-3", "real.3": "/dev/vdc",
	}}
	pvs := j.parsePvs(h)
	want := []lvgPV{{"/dev/vdb", "vg1", "/dev/vdb"}, {"/dev/mapper/crypt-a", "", "/dev/dm-3"}, {"/dev/vdc", "other", "/dev/vdc"}}
	if !slices.Equal(pvs, want) {
		t.Errorf("pvs:\n%+v\nwant\n%+v", pvs, want)
	}
	if got := lvgMinus([]string{"/dev/c", "/dev/a", "/dev/c"}, []string{"/dev/b"}); !slices.Equal(got, []string{"/dev/a", "/dev/c"}) {
		t.Errorf("minus: %q", got)
	}
}

func TestLvgScripts(t *testing.T) {
	a, err := lvgArgs.Decode(tasks.Args{"vg": "vg1", "pvs": "/dev/vdb,/srv/link"})
	if err != nil {
		t.Fatal(err)
	}
	j := &lvgJob{a: a, vg: "vg1", present: true, pvs: a.Strings("pvs")}
	s := j.readScript()
	for _, want := range []string{"_l_dev 0 /dev/vdb 1\n", "_l_dev 1 /srv/link 1\n",
		`_l_sel="pv_name = $_l_rp0 || ""pv_name = $_l_rp1 || "'pv_name = /dev/vdb || ''pv_name = /srv/link || ''vg_name = vg1'`,
		"_t_x pvs 0 \"$_t_b\" --noheadings -o pv_name,vg_name --separator ';' --select \"$_l_sel\"\n", "_t_x vgs 0"} {
		if !strings.Contains(s, want) {
			t.Errorf("the read script lacks %q:\n%s", want, s[strings.Index(s, "_l_dev 0"):])
		}
	}
	j = &lvgJob{a: a, vg: "vg1", pvs: a.Strings("pvs")}
	if s := j.readScript(); strings.Contains(s, "_t_need pvs") || !strings.Contains(s, "_l_dev 0 /dev/vdb 0\n") {
		t.Errorf("state absent reads no pvs and needs no device:\n%s", s[strings.Index(s, "_l_dev 0"):])
	}
	a, _ = lvgArgs.Decode(tasks.Args{"vg": "vg1", "pvs": "/dev/vdb", "pv_options": " --dataalignment  1m "})
	j = &lvgJob{a: a, vg: "vg1"}
	if got := j.pvcreate("/dev/vdb"); !slices.Equal(got, []string{"pvcreate", "--dataalignment", "1m", "-f", "/dev/vdb"}) {
		t.Errorf("pvcreate: %q", got)
	}
}
