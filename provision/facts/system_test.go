package facts

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// parseLines parses script output given as lines, with the system line
// every output has.
func parseLines(t *testing.T, lines ...string) map[string]any {
	t.Helper()
	f, err := Parse([]byte("v|system|Linux\n" + strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestShlexSplit checks the split against Python's shlex.split(s,
// posix=False) (answers recorded with Python 3.11).
func TestShlexSplit(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"root=/dev/sda1 ro quiet", []string{"root=/dev/sda1", "ro", "quiet"}},
		{`a="b c" d`, []string{`a="b`, `c"`, "d"}},
		{`"quoted word"tail x`, []string{`"quoted word"`, "tail", "x"}},
		{`x='y z'`, []string{`x='y`, `z'`}},
		{`bad="unclosed`, []string{`bad="unclosed`}},
		{"k=v=w  =x", []string{"k=v=w", "=x"}},
		{"it's", []string{"it's"}},
		{`"abc`, nil},
		{`a "b`, nil},
	}
	for _, c := range cases {
		got, ok := shlexSplit(c.in)
		if ok != (c.want != nil) || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q %v, want %q", c.in, got, ok, c.want)
		}
	}
}

func TestCmdline(t *testing.T) {
	f := parseLines(t, "v|cmdline|BOOT_IMAGE=/vmlinuz console=tty0 console=ttyS0,115200 ro quiet a=b=c")
	if want := map[string]any{"BOOT_IMAGE": "/vmlinuz", "console": "ttyS0,115200", "ro": true, "quiet": true, "a": "b=c"}; !reflect.DeepEqual(f["cmdline"], want) {
		t.Errorf("cmdline = %v", f["cmdline"])
	}
	if got := f["proc_cmdline"].(map[string]any)["console"]; !reflect.DeepEqual(got, []any{"tty0", "ttyS0,115200"}) {
		t.Errorf("proc_cmdline console = %v", got)
	}
	f = parseLines(t, `v|cmdline|"unclosed quote`)
	if !reflect.DeepEqual(f["cmdline"], map[string]any{}) {
		t.Errorf("an unsplittable cmdline gives %v, want {}", f["cmdline"])
	}
	if _, ok := parseLines(t)["cmdline"]; ok {
		t.Error("no /proc/cmdline, yet a cmdline fact")
	}
}

func TestDNS(t *testing.T) {
	f := parseLines(t, "f|/etc/resolv.conf|# comment", "f|/etc/resolv.conf|nameserver 10.0.0.2",
		"f|/etc/resolv.conf|nameserver 10.0.0.3", "f|/etc/resolv.conf|search a.example b.example",
		"f|/etc/resolv.conf|domain a.example", "f|/etc/resolv.conf|options ndots:2 rotate timeout:")
	want := map[string]any{"nameservers": []any{"10.0.0.2", "10.0.0.3"}, "search": []any{"a.example", "b.example"},
		"domain": "a.example", "options": map[string]any{"ndots": "2", "rotate": true, "timeout": true}}
	if !reflect.DeepEqual(f["dns"], want) {
		t.Errorf("dns = %v", f["dns"])
	}
}

func TestSecurity(t *testing.T) {
	f := parseLines(t)
	if f["selinux"].(map[string]any)["status"] != "disabled" || f["apparmor"].(map[string]any)["status"] != "disabled" ||
		f["fips"] != false || f["selinux_python_present"] != false {
		t.Errorf("a plain host: selinux %v apparmor %v fips %v python %v", f["selinux"], f["apparmor"], f["fips"], f["selinux_python_present"])
	}
	f = parseLines(t, "v|selinuxfs|/sys/fs/selinux", "p|/etc/selinux/config|", "f|/etc/selinux/config|SELINUX=permissive",
		"f|/etc/selinux/config|SELINUXTYPE=mls", "v|selinux_enforce|1", "v|selinux_policyvers|33",
		"p|/sys/kernel/security/apparmor|", "v|fips|1", "v|python_selinux|True")
	want := map[string]any{"status": "enabled", "policyvers": 33, "config_mode": "permissive", "mode": "enforcing", "type": "mls"}
	if !reflect.DeepEqual(f["selinux"], want) || f["fips"] != true || f["selinux_python_present"] != true ||
		f["apparmor"].(map[string]any)["status"] != "enabled" {
		t.Errorf("selinux %v fips %v apparmor %v", f["selinux"], f["fips"], f["apparmor"])
	}
}

func TestCapabilities(t *testing.T) {
	f := parseLines(t)
	if f["system_capabilities"] != "N/A" || f["system_capabilities_enforced"] != "N/A" {
		t.Errorf("no capsh: %v %v", f["system_capabilities"], f["system_capabilities_enforced"])
	}
	f = parseLines(t, "b|capsh|/sbin/capsh", "f|capsh|Current: =ep", "f|capsh|Current IAB: ")
	if !reflect.DeepEqual(f["system_capabilities"], []any{}) || f["system_capabilities_enforced"] != "False" {
		t.Errorf("all capabilities: %v %v", f["system_capabilities"], f["system_capabilities_enforced"])
	}
	f = parseLines(t, "b|capsh|/sbin/capsh", "f|capsh|Current: = cap_chown,cap_kill+ep")
	if !reflect.DeepEqual(f["system_capabilities"], []any{"cap_chown", "cap_kill+ep"}) || f["system_capabilities_enforced"] != "True" {
		t.Errorf("old libcap: %v %v", f["system_capabilities"], f["system_capabilities_enforced"])
	}
}

// TestCapabilitiesFromPlainSets checks the facts of the sets the script
// reads instead of running capsh: what Ansible makes of capsh's Current
// line for them ("=ep", "NAMES=ep", "="), and nothing from a value the
// script would not print.
func TestCapabilitiesFromPlainSets(t *testing.T) {
	cases := []struct {
		caps, enforced string
		list           any
	}{
		{"000001ffffffffff 40", "False", []any{}},    // all 41
		{"00000000a80425fb 40", "True", []any{"ep"}}, // a container's 14
		{"0000000000000000 40", "True", []any{""}},   // none
		{"00000000000fffff 40", "True", []any{"ep"}}, // 20 of 41
		{"0000001fffffffff 36", "False", []any{}},    // all 37 of an older kernel
		{"000001fffffffffe 40", "N/A", "N/A"},        // most but not all: capsh's work
		{"000001ffffffffff 39", "N/A", "N/A"},        // a bit past the last
		{"zz 40", "N/A", "N/A"}, {"0000000000000001", "N/A", "N/A"}, {"1 x", "N/A", "N/A"},
	}
	for _, c := range cases {
		f := parseLines(t, "b|capsh|/sbin/capsh", "v|caps|"+c.caps)
		if !reflect.DeepEqual(f["system_capabilities"], c.list) || f["system_capabilities_enforced"] != c.enforced {
			t.Errorf("%s: %v %v, want %v %v", c.caps, f["system_capabilities"], f["system_capabilities_enforced"], c.list, c.enforced)
		}
	}
	if f := parseLines(t, "v|caps|00000000a80425fb 40"); f["system_capabilities"] != "N/A" {
		t.Errorf("no capsh on the host: %v", f["system_capabilities"])
	}
}

func TestChroot(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  bool
	}{
		{"same root as PID 1", []string{"v|same_root|1"}, false},
		{"another root", nil, true},
		{"debian_chroot", []string{"v|same_root|1", "e|debian_chroot|build"}, true},
		{"not root, inode 2", []string{"v|root_inode|2", "s|4096 4096 1 1 1 1|ext2/ext3|/"}, false},
		{"not root, btrfs subvolume", []string{"v|root_inode|256", "s|4096 4096 1 1 1 1|btrfs|/"}, false},
		{"not root, xfs, inode 2", []string{"v|root_inode|2", "s|4096 4096 1 1 1 1|xfs|/"}, true},
	}
	for _, c := range cases {
		if got := parseLines(t, c.lines...)["is_chroot"]; got != c.want {
			t.Errorf("%s: is_chroot %v", c.name, got)
		}
	}
}

func TestSSHHostKeys(t *testing.T) {
	f := parseLines(t, "f|/etc/ssh/ssh_host_rsa_key.pub|ssh-rsa AAAArsa root@h",
		"f|/etc/openssh/ssh_host_dsa_key.pub|ssh-dss AAAAdsa", "f|/etc/openssh/ssh_host_rsa_key.pub|ssh-rsa OTHER",
		"f|/etc/openssh/ssh_host_ed25519_key.pub|ssh-ed25519 AAAAed")
	// Ansible takes /etc/openssh's dsa key, then stops at its rsa key (rsa is known).
	want := map[string]any{"ssh_host_key_rsa_public": "AAAArsa", "ssh_host_key_rsa_public_keytype": "ssh-rsa",
		"ssh_host_key_dsa_public": "AAAAdsa", "ssh_host_key_dsa_public_keytype": "ssh-dss"}
	for k, w := range want {
		if f[k] != w {
			t.Errorf("%s = %v, want %v", k, f[k], w)
		}
	}
	if _, ok := f["ssh_host_key_ed25519_public"]; ok {
		t.Error("ed25519 key read past the stop")
	}
}

func TestLSB(t *testing.T) {
	f := parseLines(t, "f|lsb_release|Distributor ID:\tUbuntu", "f|lsb_release|Description:\tUbuntu 22.04.3 LTS",
		"f|lsb_release|Release:\t22.04", "f|lsb_release|Codename:\tjammy", "f|/etc/lsb-release|DISTRIB_ID=Other")
	want := map[string]any{"id": "Ubuntu", "description": "Ubuntu 22.04.3 LTS", "release": "22.04", "codename": "jammy", "major_release": "22"}
	if !reflect.DeepEqual(f["lsb"], want) {
		t.Errorf("lsb_release: %v", f["lsb"])
	}
	f = parseLines(t, "f|/etc/lsb-release|DISTRIB_ID=Ubuntu", "f|/etc/lsb-release|DISTRIB_RELEASE=24.04",
		"f|/etc/lsb-release|DISTRIB_CODENAME=noble", `f|/etc/lsb-release|DISTRIB_DESCRIPTION="Ubuntu 24.04.1 LTS"`)
	want = map[string]any{"id": "Ubuntu", "description": "Ubuntu 24.04.1 LTS", "release": "24.04", "codename": "noble", "major_release": "24"}
	if !reflect.DeepEqual(f["lsb"], want) {
		t.Errorf("/etc/lsb-release: %v", f["lsb"])
	}
	if f := parseLines(t); !reflect.DeepEqual(f["lsb"], map[string]any{}) {
		t.Errorf("no lsb: %v", f["lsb"])
	}
}

func TestStorageIDs(t *testing.T) {
	f := parseLines(t, "f|/etc/iscsi/initiatorname.iscsi|## comment", "f|/etc/iscsi/initiatorname.iscsi|InitiatorName=iqn.1993-08.org.debian:01:44a4",
		"f|/etc/nvme/hostnqn|nqn.2014-08.org.nvmexpress:uuid:2cd6", "f|/sys/class/fc_host|0x21000014ff52a9bb")
	if f["iscsi_iqn"] != "iqn.1993-08.org.debian:01:44a4" || f["hostnqn"] != "nqn.2014-08.org.nvmexpress:uuid:2cd6" ||
		!reflect.DeepEqual(f["fibre_channel_wwn"], []any{"21000014ff52a9bb"}) {
		t.Errorf("iqn %v nqn %v wwn %v", f["iscsi_iqn"], f["hostnqn"], f["fibre_channel_wwn"])
	}
	f = parseLines(t)
	if f["iscsi_iqn"] != "" || f["hostnqn"] != "" || !reflect.DeepEqual(f["fibre_channel_wwn"], []any{}) {
		t.Errorf("none: iqn %v nqn %v wwn %v", f["iscsi_iqn"], f["hostnqn"], f["fibre_channel_wwn"])
	}
}

// TestDateTime checks the formatting against Python's strftime in
// Europe/Berlin (answers recorded with Python 3.11: %W around new year, a
// summer instant, microseconds).
func TestDateTime(t *testing.T) {
	cases := []struct {
		sec, nsec int64
		offset    string
		fields    string // year month weekday wday week day hour min sec epoch
		micro     string
		basic     string
		zone      string
	}{
		{1704067199, 123456000, "+0100", "2024 01 Monday 1 01 01 00 59 59 1704067199", "2023-12-31T23:59:59.123456Z", "20240101T005959123456", "CET"},
		{1719792000, 500000000, "+0200", "2024 07 Monday 1 27 01 02 00 00 1719792000", "2024-07-01T00:00:00.500000Z", "20240701T020000500000", "CEST"},
		{1735689600, 0, "+0100", "2025 01 Wednesday 3 00 01 01 00 00 1735689600", "2025-01-01T00:00:00.000000Z", "20250101T010000000000", "CET"},
		{1609459200, 0, "+0100", "2021 01 Friday 5 00 01 01 00 00 1609459200", "2021-01-01T00:00:00.000000Z", "20210101T010000000000", "CET"},
	}
	for _, c := range cases {
		off, _ := parseOffset(c.offset)
		d := formatDateTime(time.Unix(c.sec, c.nsec), off, c.zone, c.offset, "CEST")
		got := strings.Join([]string{d["year"].(string), d["month"].(string), d["weekday"].(string), d["weekday_number"].(string),
			d["weeknumber"].(string), d["day"].(string), d["hour"].(string), d["minute"].(string), d["second"].(string), d["epoch"].(string)}, " ")
		if got != c.fields || d["iso8601_micro"] != c.micro || d["iso8601_basic"] != c.basic || d["tz"] != c.zone {
			t.Errorf("%d: got %q %v %v, want %q %v %v", c.sec, got, d["iso8601_micro"], d["iso8601_basic"], c.fields, c.micro, c.basic)
		}
	}
	// The script's line: busybox's date has no %N; the zone file's rule names tz_dst.
	f := parseLines(t, "v|date|1704067199 %N +0100 CET", "v|tzfooter|CET-1CEST,M3.5.0,M10.5.0/3")
	d := f["date_time"].(map[string]any)
	if d["tz_dst"] != "CEST" || d["iso8601_micro"] != "2023-12-31T23:59:59.000000Z" || d["tz_offset"] != "+0100" {
		t.Errorf("date_time = %v", d)
	}
	for rule, want := range map[string][2]string{"UTC0": {"UTC", "UTC"}, "<+03>-3": {"+03", "+03"},
		"EST5EDT,M3.2.0,M11.1.0": {"EST", "EDT"}, "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1": {"-03", "-02"}} {
		std, dst, ok := tzNames(rule)
		if !ok || std != want[0] || dst != want[1] {
			t.Errorf("tzNames(%q) = %q %q %v", rule, std, dst, ok)
		}
	}
	if _, _, ok := tzNames("\x00garbage"); ok {
		t.Error("a binary line read as a zone rule")
	}
}

func TestUserspaceAndIDs(t *testing.T) {
	f := parseLines(t, "v|machine|x86_64", "v|userspace_bits|32", "v|uids|1000 0", "v|gids|100 5", "v|machine_id|abc123")
	if f["userspace_bits"] != "32" || f["userspace_architecture"] != "i386" || f["machine_id"] != "abc123" {
		t.Errorf("bits %v arch %v machine_id %v", f["userspace_bits"], f["userspace_architecture"], f["machine_id"])
	}
	if f["real_user_id"] != 1000 || f["effective_user_id"] != 0 || f["real_group_id"] != 100 || f["effective_group_id"] != 100 {
		t.Errorf("ids %v %v %v %v", f["real_user_id"], f["effective_user_id"], f["real_group_id"], f["effective_group_id"])
	}
	f = parseLines(t, "v|machine|aarch64", "v|userspace_bits|64")
	if _, ok := f["userspace_architecture"]; ok || f["userspace_bits"] != "64" {
		t.Errorf("arm: %v %v", f["userspace_architecture"], f["userspace_bits"])
	}
}
