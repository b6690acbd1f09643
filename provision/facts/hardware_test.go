package facts

import (
	"fmt"
	"reflect"
	"testing"
)

// cpuinfo renders /proc/cpuinfo lines for sockets × cores × threads.
func cpuinfo(sockets, cores, threads int) []string {
	var out []string
	n := 0
	for s := 0; s < sockets; s++ {
		for c := 0; c < cores; c++ {
			for th := 0; th < threads; th++ {
				out = append(out, fmt.Sprintf("f|/proc/cpuinfo|processor\t: %d", n), "f|/proc/cpuinfo|vendor_id\t: GenuineIntel",
					"f|/proc/cpuinfo|model name\t: Intel(R) Xeon(R)", fmt.Sprintf("f|/proc/cpuinfo|physical id\t: %d", s),
					fmt.Sprintf("f|/proc/cpuinfo|siblings\t: %d", cores*threads), fmt.Sprintf("f|/proc/cpuinfo|core id\t: %d", c),
					fmt.Sprintf("f|/proc/cpuinfo|cpu cores\t: %d", cores))
				n++
			}
		}
	}
	return out
}

func TestCPU(t *testing.T) {
	f := parseLines(t, append(cpuinfo(2, 4, 2), "v|machine|x86_64", "v|cpus_allowed|0-3,8")...)
	want := map[string]any{"processor_count": 2, "processor_cores": 4, "processor_threads_per_core": 2,
		"processor_vcpus": 16, "processor_nproc": 5}
	for k, w := range want {
		if f[k] != w {
			t.Errorf("%s = %v, want %v", k, f[k], w)
		}
	}
	if p := f["processor"].([]any); len(p) != 48 || p[0] != "0" || p[1] != "GenuineIntel" || p[2] != "Intel(R) Xeon(R)" {
		t.Errorf("processor = %v", p)
	}
	// ARM: no physical ids, the processor lines count.
	f = parseLines(t, "v|machine|aarch64", "f|/proc/cpuinfo|processor\t: 0", "f|/proc/cpuinfo|processor\t: 1",
		"f|/proc/cpuinfo|CPU implementer\t: 0x41")
	if f["processor_count"] != 2 || f["processor_cores"] != 1 || f["processor_vcpus"] != 2 || f["processor_nproc"] != 2 {
		t.Errorf("arm: count %v cores %v vcpus %v nproc %v", f["processor_count"], f["processor_cores"], f["processor_vcpus"], f["processor_nproc"])
	}
	// Xen paravirt: no vme flag.
	f = parseLines(t, append(cpuinfo(1, 2, 1), "v|machine|x86_64", "p|/proc/xen|", "f|/proc/cpuinfo|flags\t:")...)
	if f["processor_count"] != 2 || f["processor_threads_per_core"] != 1 || f["processor_vcpus"] != 2 {
		t.Errorf("xen: %v %v %v", f["processor_count"], f["processor_threads_per_core"], f["processor_vcpus"])
	}
}

func TestMemory(t *testing.T) {
	f := parseLines(t, "f|/proc/meminfo|MemTotal:       16384000 kB", "f|/proc/meminfo|MemFree:         1024000 kB",
		"f|/proc/meminfo|Buffers:          102400 kB", "f|/proc/meminfo|Cached:          2048000 kB",
		"f|/proc/meminfo|SwapCached:          0 kB", "f|/proc/meminfo|SwapTotal:       2097148 kB", "f|/proc/meminfo|SwapFree:        2097148 kB")
	want := map[string]any{
		"real":    map[string]any{"total": 16000, "used": 15000, "free": 1000},
		"nocache": map[string]any{"free": 3100, "used": 12900},
		"swap":    map[string]any{"total": 2047, "free": 2047, "used": 0, "cached": 0},
	}
	if !reflect.DeepEqual(f["memory_mb"], want) || f["memtotal_mb"] != 16000 || f["memfree_mb"] != 1000 || f["swaptotal_mb"] != 2047 || f["swapfree_mb"] != 2047 {
		t.Errorf("memory_mb %v memtotal %v memfree %v swap %v/%v", f["memory_mb"], f["memtotal_mb"], f["memfree_mb"], f["swaptotal_mb"], f["swapfree_mb"])
	}
}

// TestDMI covers the three sources: the kernel's DMI files (root-only
// serials unreadable), dmidecode where the kernel has none, and neither
// (a container without DMI, an ARM board): every fact "NA".
func TestDMI(t *testing.T) {
	f := parseLines(t, "p|/sys/devices/virtual/dmi/id/product_name|", "v|dmi_product_name|PowerEdge R640",
		"v|dmi_sys_vendor|Dell Inc.", "v|dmi_chassis_type|23", "v|dmi_bios_version|2.17.1 ")
	for k, w := range map[string]any{"product_name": "PowerEdge R640", "system_vendor": "Dell Inc.", "form_factor": "Rack Mount Chassis",
		"bios_version": "2.17.1", "product_serial": "NA", "board_asset_tag": "NA"} {
		if f[k] != w {
			t.Errorf("sysfs: %s = %v, want %v", k, f[k], w)
		}
	}
	if got := formFactor("99"); got != "unknown (99)" {
		t.Errorf("formFactor(99) = %q", got)
	}
	f = parseLines(t, "f|dmidecode|BIOS Information", "f|dmidecode|\tVendor: SeaBIOS", "f|dmidecode|\tRelease Date: 04/01/2014",
		"f|dmidecode|System Information", "f|dmidecode|\tManufacturer: QEMU", "f|dmidecode|\tProduct Name: Standard PC (Q35 + ICH9, 2009)",
		"f|dmidecode|\tUUID: 5f3e-11", "f|dmidecode|Chassis Information", "f|dmidecode|\tType: Other", "f|dmidecode|\tContained Elements: 1",
		"f|dmidecode|\t\tnested: x")
	for k, w := range map[string]any{"bios_vendor": "SeaBIOS", "bios_date": "04/01/2014", "system_vendor": "QEMU",
		"product_name": "Standard PC (Q35 + ICH9, 2009)", "product_uuid": "5f3e-11", "form_factor": "Other", "board_name": "NA"} {
		if f[k] != w {
			t.Errorf("dmidecode: %s = %v, want %v", k, f[k], w)
		}
	}
	f = parseLines(t)
	for _, d := range dmiFacts {
		if f[d.fact] != "NA" {
			t.Errorf("no DMI: %s = %v", d.fact, f[d.fact])
		}
	}
}

func TestUptimeAndLoad(t *testing.T) {
	f := parseLines(t, "v|uptime|8044.94 8422.72", "v|loadavg|4.03 2.28 1.72 8/339 199")
	if f["uptime_seconds"] != 8044 || !reflect.DeepEqual(f["loadavg"], map[string]any{"1m": 4.03, "5m": 2.28, "15m": 1.72}) {
		t.Errorf("uptime %v loadavg %v", f["uptime_seconds"], f["loadavg"])
	}
}

func TestLVM(t *testing.T) {
	if f := parseLines(t, "b|vgs|/sbin/vgs", "v|uids|1000 1000"); f["lvm"] != "N/A" {
		t.Errorf("not root: lvm %v", f["lvm"])
	}
	f := parseLines(t, "b|vgs|/sbin/vgs", "v|uids|0 0", "f|vgs|  vg0,1,2,0,wz--n-,99.50,10.00",
		"f|lvs|  root,vg0,-wi-ao----,40.00,,,,,,,", "f|pvs|  /dev/dm-3,vg0,lvm2,a--,99.50,10.00", "f|dm_name|dm-3 luks-abc")
	want := map[string]any{
		"vgs": map[string]any{"vg0": map[string]any{"size_g": "99.50", "free_g": "10.00", "num_lvs": "2", "num_pvs": "1"}},
		"lvs": map[string]any{"root": map[string]any{"size_g": "40.00", "vg": "vg0"}},
		"pvs": map[string]any{"/dev/mapper/luks-abc": map[string]any{"size_g": "99.50", "free_g": "10.00", "vg": "vg0"}},
	}
	if !reflect.DeepEqual(f["lvm"], want) {
		t.Errorf("lvm = %v", f["lvm"])
	}
}
