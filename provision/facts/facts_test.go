package facts

import (
	"context"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

const debianHost = `v|system|Linux
v|kernel|6.1.0-18-amd64
v|kernel_version|#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)
v|machine|x86_64
v|nodename|web1.example.com
v|fqdn_names| web1.example.com web1
v|user_id|deploy
v|user_uid|1000
v|user_gid|1000
v|uids|1000 1000
v|gids|1000 1000
v|passwd|deploy:x:1000:1000:Deploy User,,,:/home/deploy:/bin/bash
f|/proc/cpuinfo|processor	: 0
f|/proc/cpuinfo|processor	: 1
f|/proc/cpuinfo|processor	: 2
f|/proc/cpuinfo|processor	: 3
f|/proc/meminfo|MemTotal:        8149524 kB
v|proc1|sshd
f|/etc/os-release|ID=debian
f|/etc/os-release|VERSION_ID="12"
f|/etc/os-release|VERSION_CODENAME=bookworm
f|/etc/debian_version|12.5
p|/etc/init.d|
p|/usr/bin/apt-get|
b|ip|/usr/sbin/ip
o|net|eth0
a|address|02:42:ac:12:00:05
a|mtu|1500
a|type|1
o|net|lo
a|address|00:00:00:00:00:00
a|mtu|65536
a|type|772
f|ip|1: lo    inet 127.0.0.1/8 scope host lo\       valid_lft forever preferred_lft forever
f|ip|21: eth0    inet 172.18.0.5/16 brd 172.18.255.255 scope global eth0\       valid_lft forever preferred_lft forever
f|ip|8.8.8.8 via 172.18.0.1 dev eth0 src 172.18.0.5 uid 1000 \    cache
e|HOME|/home/deploy
e|ODD|a\b%0Asecond line%25
`

func TestParseDebianHost(t *testing.T) {
	f, err := Parse([]byte(debianHost))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"distribution": "Debian", "distribution_version": "12", "distribution_minor_version": "5", "distribution_major_version": "12",
		"distribution_release": "bookworm", "os_family": "Debian", "pkg_mgr": "apt", "service_mgr": "sshd",
		"system": "Linux", "kernel": "6.1.0-18-amd64", "machine": "x86_64", "architecture": "x86_64",
		"nodename": "web1.example.com", "hostname": "web1", "fqdn": "web1.example.com", "domain": "example.com",
		"user_id": "deploy", "user_uid": 1000, "user_gid": 1000, "user_dir": "/home/deploy", "user_shell": "/bin/bash",
		"user_gecos": "Deploy User,,,", "processor_vcpus": 4, "memtotal_mb": 7958,
		"all_ipv4_addresses": []any{"172.18.0.5"},
		"default_ipv4": map[string]any{
			"address": "172.18.0.5", "alias": "eth0", "broadcast": "172.18.255.255", "gateway": "172.18.0.1",
			"interface": "eth0", "macaddress": "02:42:ac:12:00:05", "mtu": 1500, "netmask": "255.255.0.0",
			"network": "172.18.0.0", "prefix": "16", "type": "ether",
		},
		"env": map[string]any{"HOME": "/home/deploy", "ODD": "a\\b\nsecond line%"},
	}
	for k, w := range want {
		if !reflect.DeepEqual(f[k], w) {
			t.Errorf("%s = %#v, want %#v", k, f[k], w)
		}
	}
	v := Vars(f)
	if v["ansible_os_family"] != "Debian" || v["ansible_facts"].(map[string]any)["os_family"] != "Debian" {
		t.Errorf("Vars: ansible_os_family %v, ansible_facts.os_family missing", v["ansible_os_family"])
	}
}

func TestServiceAndPackageManagers(t *testing.T) {
	base := "v|system|Linux\n"
	cases := []struct {
		name, out, svc, pkg string
	}{
		{"systemd booted", "v|proc1|systemd\nf|/etc/os-release|ID=rocky\nf|/etc/os-release|VERSION_ID=\"9.3\"\np|/usr/bin/dnf|\np|/usr/bin/yum|\n", "systemd", "dnf"},
		{"init in a VM, systemd canary", "v|proc1|init\nb|systemctl|/bin/systemctl\np|/run/systemd/system|\nf|/etc/os-release|ID=centos\nf|/etc/centos-release|CentOS Linux release 7.9.2009 (Core)\np|/usr/bin/yum|\n", "systemd", "yum"},
		{"container with sh as PID 1, SysV scripts", "v|proc1|bash\np|/etc/init.d|\nf|/etc/os-release|ID=debian\n", "sysvinit", "apt"},
		{"openrc", "v|proc1|init\np|/sbin/openrc|\nf|/etc/os-release|ID=alpine\np|/sbin/apk|\n", "openrc", "apk"},
		{"openrc-init as PID 1 (the fleet's OpenRC host)", "v|proc1|openrc-init\np|/sbin/openrc|\np|/etc/init.d|\nf|/etc/os-release|ID=debian\n", "openrc", "apt"},
		{"nothing known", "v|proc1|\nf|/etc/os-release|ID=alpine\n", "service", "unknown"},
		{"offline systemd", "v|proc1|\nv|sbin_init|/lib/systemd/systemd\nb|systemctl|/bin/systemctl\nf|/etc/os-release|ID=fedora\nf|/etc/os-release|VERSION_ID=39\np|/usr/bin/dnf|\n", "systemd", "dnf"},
		{"opensuse", "v|proc1|systemd\nf|/etc/os-release|ID=opensuse-leap\nf|/etc/os-release|NAME=\"openSUSE Leap\"\np|/usr/bin/zypper|\n", "systemd", "zypper"},
	}
	for _, c := range cases {
		f, err := Parse([]byte(base + c.out))
		if err != nil {
			t.Fatal(err)
		}
		if f["service_mgr"] != c.svc || f["pkg_mgr"] != c.pkg {
			t.Errorf("%s: service_mgr %v pkg_mgr %v, want %s %s", c.name, f["service_mgr"], f["pkg_mgr"], c.svc, c.pkg)
		}
	}
}

func TestParseRejectsGarbage(t *testing.T) {
	for _, out := range []string{"", "hello\n", "v|kernel|6.1\n"} {
		if _, err := Parse([]byte(out)); err == nil {
			t.Errorf("Parse(%q) should fail", out)
		}
	}
}

// TestGatherLocal runs the real script on this machine through the local
// transport and checks what Go can see for itself.
func TestGatherLocal(t *testing.T) {
	conn, err := local.Dialer{}.Connect(context.Background(), transport.Target{Name: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("TENDER_FACTS_PROBE", "x\ny\\z")
	f, err := Gather(context.Background(), conn)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	if f["nodename"] != host || f["system"] != "Linux" {
		t.Errorf("nodename %v system %v, want %s Linux", f["nodename"], f["system"], host)
	}
	if f["processor_vcpus"].(int) < 1 || f["memtotal_mb"].(int) < 64 {
		t.Errorf("vcpus %v memtotal_mb %v", f["processor_vcpus"], f["memtotal_mb"])
	}
	if runtime.GOARCH == "amd64" && f["architecture"] != "x86_64" {
		t.Errorf("architecture %v", f["architecture"])
	}
	if f["env"].(map[string]any)["TENDER_FACTS_PROBE"] != "x\ny\\z" {
		t.Errorf("env lost a multi-line value: %q", f["env"].(map[string]any)["TENDER_FACTS_PROBE"])
	}
	if data, err := os.ReadFile("/etc/os-release"); err == nil && strings.Contains(string(data), "ID=debian") {
		if f["os_family"] != "Debian" || f["pkg_mgr"] != "apt" {
			t.Errorf("on Debian: os_family %v pkg_mgr %v", f["os_family"], f["pkg_mgr"])
		}
	}
}

// TestScriptUnderShells runs the fact script here under every POSIX shell
// this machine has (dash, bash, busybox sh; $BUSYBOX names a busybox that
// is not on $PATH) and checks each reads the host the same way.
func TestScriptUnderShells(t *testing.T) {
	shells := map[string][]string{}
	for _, sh := range []string{"dash", "bash", "busybox"} {
		if p, err := exec.LookPath(sh); err == nil {
			shells[sh] = []string{p}
		}
	}
	if bb := os.Getenv("BUSYBOX"); bb != "" {
		shells["busybox"] = []string{bb}
	}
	if b, ok := shells["busybox"]; ok {
		shells["busybox"] = append(b, "sh")
	}
	if len(shells) < 2 {
		t.Skip("fewer than two shells to compare")
	}
	keys := []string{"nodename", "distribution", "os_family", "user_id", "processor_count", "memtotal_mb",
		"interfaces", "devices", "is_chroot", "virtualization_type", "dns", "cmdline", "fips", "selinux", "lsb"}
	var first map[string]any
	var firstName string
	for name, argv := range shells {
		out, err := exec.Command(argv[0], append(argv[1:], "-c", Script)...).Output()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok := f["date_time"]; !ok {
			t.Errorf("%s: no date_time", name)
		}
		if first == nil {
			first, firstName = f, name
			continue
		}
		for _, k := range keys {
			if k == "interfaces" {
				// A container started meanwhile (by a test of another
				// package) adds its veth pair between two runs.
				f[k], first[k] = withoutVeth(f[k]), withoutVeth(first[k])
			}
			if !reflect.DeepEqual(f[k], first[k]) {
				t.Errorf("%s under %s is %v, under %s %v", k, name, f[k], firstName, first[k])
			}
		}
	}
}

// withoutVeth is an interfaces fact without the veth interfaces that
// container runtimes add and remove at any time.
func withoutVeth(v any) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	out := []any{}
	for _, e := range l {
		if s, _ := e.(string); !strings.HasPrefix(s, "veth") {
			out = append(out, e)
		}
	}
	return out
}
