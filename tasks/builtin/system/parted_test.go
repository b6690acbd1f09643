package system

import (
	"reflect"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// TestPartedParseUnit checks sizes, their units and the failures.
func TestPartedParseUnit(t *testing.T) {
	tests := []struct {
		in, unit string
		size     any
		wantUnit string
		err      string
	}{
		{"10240kiB", "KiB", 10240.0, "kiB", ""},
		{"-1MiB", "", -1.0, "MiB", ""},
		{"50%", "", 50.0, "%", ""},
		{"10 MB", "", 10.0, "MB", ""},
		{"12", "s", 12.0, "s", ""},
		{"0,1,2", "", map[string]any{"cylinder": 0, "head": 1, "sector": 2}, "chs", ""},
		{"abc", "", nil, "", "Error interpreting parted size output: 'abc'"},
		{"1.2.3MB", "", 0.0, "MB", "could not convert string to float: '1.2.3'"},
	}
	for _, tt := range tests {
		size, unit, err := partedParseUnit(tt.in, tt.unit)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(size, tt.size) || unit != tt.wantUnit {
			t.Errorf("%q: got %v %q %v, want %v %q", tt.in, size, unit, err, tt.size, tt.wantUnit)
		}
	}
}

// TestPartedSizeOK checks the part_start/part_end format rule.
func TestPartedSizeOK(t *testing.T) {
	for in, want := range map[string]bool{"0%": true, "-4MiB": true, "10xx": false, "-1": false, "3s": true, "1kib": false} {
		ok, pair, err := partedSizeOK(in)
		if err != nil || ok != want || (!ok && len(pair) != 2) {
			t.Errorf("%q: %v %v %v, want %v", in, ok, pair, err, want)
		}
	}
}

// TestPartedParseInfo checks the disk and partitions read from parted's
// machine output, in bytes-like units, cyl and chs.
func TestPartedParseInfo(t *testing.T) {
	got, err := partedParseInfo("BYT;\n/tmp/d.img:10.0MiB:file:512:512:gpt::;\n1:0.02MiB:5.00MiB:4.98MiB:ext4:my part:boot, esp;\n", "MiB")
	if err != nil {
		t.Fatal(err)
	}
	wantDisk := map[string]any{"dev": "/tmp/d.img", "size": 10.0, "unit": "mib", "table": "gpt", "model": "",
		"logical_block": 512, "physical_block": 512}
	wantPart := map[string]any{"num": 1, "begin": 0.02, "end": 5.0, "size": 4.98, "fstype": "ext4", "name": "my part",
		"flags": []any{"boot", "esp"}, "unit": "mib"}
	if !reflect.DeepEqual(got.disk, wantDisk) || len(got.parts) != 1 || !reflect.DeepEqual(got.parts[0], wantPart) {
		t.Errorf("got %#v %#v", got.disk, got.parts)
	}
	got, err = partedParseInfo("BYT;\n/tmp/d.img:10240kiB:file:512:512:unknown::;\n", "KiB")
	if err != nil || got.disk["table"] != "unknown" || got.disk["unit"] != "kib" || len(got.parts) != 0 {
		t.Errorf("unlabeled: %#v %v", got, err)
	}
	got, err = partedParseInfo("CHS;\n/tmp/d.img:159,3,31:file:512:512:gpt::;\n160:4:32:65.5kB;\n1:0,1,2:79,3,31::primary:;\n", "chs")
	if err != nil {
		t.Fatal(err)
	}
	if got.disk["unit"] != "chs" || !reflect.DeepEqual(got.disk["chs_info"], map[string]any{"cylinders": 160, "heads": 4,
		"sectors": 32, "cyl_size": 65.5, "cyl_size_unit": "kb"}) {
		t.Errorf("chs disk: %#v", got.disk)
	}
	if p := got.parts[0]; p["size"] != "" || p["name"] != "primary" || !reflect.DeepEqual(p["end"], map[string]any{"cylinder": 79, "head": 3, "sector": 31}) {
		t.Errorf("chs part: %#v", p)
	}
	got, err = partedParseInfo("CYL;\n/tmp/d.img:159cyl:file:512:512:gpt::;\n160:4:32:65.5kB;\n1:0cyl:79cyl:79cyl::primary:;\n", "cyl")
	if err != nil || got.parts[0]["size"] != 79.0 || got.disk["chs_info"] == nil {
		t.Errorf("cyl: %#v %v", got, err)
	}
}

// TestPartedToBytes checks the unit multipliers of the resize test.
func TestPartedToBytes(t *testing.T) {
	tests := []struct {
		size float64
		unit string
		want int64
	}{
		{24, "MiB", 24 << 20}, {1, "KiB", 1024}, {2, "KB", 2000}, {3, "s", 3}, {1.5, "compact", 1500000}, {7, "B", 7},
	}
	for _, tt := range tests {
		if got := partedToBytes(tt.size, tt.unit); got != tt.want {
			t.Errorf("%v %s: %d, want %d", tt.size, tt.unit, got, tt.want)
		}
	}
}

// TestPartedFlagsScript checks the set commands for flags.
func TestPartedFlagsScript(t *testing.T) {
	if got := partedFlagsScript(3, []string{"raid"}, []any{"lvm"}); got != "set 3 raid on set 3 lvm off " {
		t.Errorf("swap: %q", got)
	}
	if got := partedFlagsScript(1, []string{"esp"}, []any{}); got != "set 1 esp on set 1 boot on " {
		t.Errorf("esp: %q", got)
	}
	if got := partedFlagsScript(1, []string{"esp"}, []any{"boot", "esp"}); got != "" {
		t.Errorf("same: %q", got)
	}
}

// TestPartedPlan checks the first script of state present.
func TestPartedPlan(t *testing.T) {
	blank := &partedInfo{disk: map[string]any{"table": "unknown", "size": 32.0}}
	part := &partedInfo{disk: map[string]any{"table": "gpt", "size": 32.0},
		parts: []map[string]any{{"num": 2, "end": 20.0, "flags": []any{}}}}
	base := tasks.Values{"number": 2, "unit": "MiB", "label": "gpt", "part_type": "primary", "part_start": "0%", "part_end": "100%"}
	with := func(kv ...any) tasks.Values {
		v := tasks.Values{}
		for k, x := range base {
			v[k] = x
		}
		for i := 0; i < len(kv); i += 2 {
			v[kv[i].(string)] = kv[i+1]
		}
		return v
	}
	tests := []struct {
		a    tasks.Values
		cur  *partedInfo
		want string
	}{
		{with("fs_type", "ext4"), blank, "unit MiB mklabel gpt mkpart primary ext4 0% 100% "},
		{with(), part, ""},
		{with("label", "msdos"), part, "unit MiB mklabel msdos mkpart primary 0% 100% "},
		{with("resize", true, "part_end", "20MiB"), part, ""},
		{with("resize", true, "part_end", "24MiB"), part, "resizepart 2 24MiB "},
		{with("resize", true, "part_end", "80%"), part, "resizepart 2 80% "},
		{with("number", 3), part, "unit MiB mkpart primary 0% 100% "},
	}
	for i, tt := range tests {
		got, err := partedPlan(tt.a, tt.cur)
		if err != nil || got != tt.want {
			t.Errorf("%d: %q %v, want %q", i, got, err, tt.want)
		}
	}
}

// TestPartedParseRuns checks the script's framing of parted's output.
func TestPartedParseRuns(t *testing.T) {
	bin, fail, runs := partedParseRuns("bin=/usr/sbin/parted\n@@ v 0\no parted (GNU parted) 3.5\n@@ i 1\no BYT;\no \ne Error: x\n")
	if bin != "/usr/sbin/parted" || fail != "" || len(runs) != 2 {
		t.Fatalf("%q %q %#v", bin, fail, runs)
	}
	if runs[1].rc != 1 || runs[1].out != "BYT;\n\n" || runs[1].err != "Error: x\n" || runs[0].out != "parted (GNU parted) 3.5\n" {
		t.Errorf("%#v", runs)
	}
	if err := partedVersion(runs[0]); err != nil {
		t.Errorf("version: %v", err)
	}
	if err := partedVersion(partedCmd{kind: "v", out: "parted (GNU parted) 3.0\n"}); err == nil {
		t.Errorf("3.0 accepted")
	}
}
