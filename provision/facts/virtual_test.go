package facts

import (
	"reflect"
	"testing"
)

func TestVirtualization(t *testing.T) {
	cases := []struct {
		name        string
		lines       []string
		typ, role   any
		guest, host []any
	}{
		{"bare metal", nil, "NA", "NA", []any{}, []any{}},
		{"docker", []string{"f|/proc/1/cgroup|0::/docker/0123abcd", "p|/.dockerenv|"}, "docker", "guest", []any{"container", "docker"}, []any{}},
		{"systemd scope docker", []string{"f|/proc/1/cgroup|0::/system.slice/docker-0a1b.scope"}, "docker", "guest", []any{"container", "docker"}, []any{}},
		{"lxc by PID 1's environment", []string{"v|pid1_container|lxc any"}, "lxc", "guest", []any{"container", "lxc"}, []any{}},
		{"podman", []string{"v|pid1_container| podman any"}, "podman", "guest", []any{"container", "podman"}, []any{}},
		{"container=docker in PID 1's environment (OpenRC host)", []string{"v|pid1_container| any", "p|/.dockerenv|"}, "container", "guest", []any{"container", "docker"}, []any{}},
		{"systemd-nspawn", []string{"v|systemd_container|systemd-nspawn"}, "systemd-nspawn", "guest", []any{"container", "systemd-nspawn"}, []any{}},
		{"KVM guest", []string{"v|dmi_product_name|Standard PC (Q35 + ICH9, 2009)", "v|dmi_sys_vendor|QEMU", "v|module_virtio|1"}, "kvm", "guest", []any{"kvm"}, []any{"kvm"}},
		{"VMware", []string{"v|dmi_product_name|VMware Virtual Platform", "v|dmi_sys_vendor|VMware, Inc."}, "VMware", "guest", []any{"VMware"}, []any{}},
		{"VMware by dmidecode", []string{"v|dmi_product_name|VMware20,1", "b|dmidecode|/sbin/dmidecode", "v|uids|0 0"}, "VMware", "guest", []any{"VMware"}, []any{}},
		{"KVM host", []string{"v|module_kvm|1", "p|/dev/kvm|"}, "kvm", "host", []any{}, []any{"kvm"}},
		{"Xen dom0", []string{"p|/proc/xen|", "f|/proc/xen/capabilities|control_d"}, "xen", "host", []any{}, []any{"xen"}},
		{"OpenVZ guest", []string{"p|/proc/vz|"}, "openvz", "guest", []any{"container", "openvz"}, []any{}},
		{"VServer guest", []string{"v|vxid|49152"}, "linux_vserver", "guest", []any{"linux_vserver"}, []any{}},
		{"QEMU CPU", []string{"f|/proc/cpuinfo|model name\t: QEMU Virtual CPU version 2.5+"}, "kvm", "guest", []any{"kvm"}, []any{}},
		{"s390", []string{"f|/proc/cpuinfo|vendor_id       : IBM/S390"}, "ibm_systemz", "guest", []any{"PR/SM", "ibm_systemz"}, []any{}},
	}
	for _, c := range cases {
		f := parseLines(t, c.lines...)
		if f["virtualization_type"] != c.typ || f["virtualization_role"] != c.role ||
			!reflect.DeepEqual(f["virtualization_tech_guest"], c.guest) || !reflect.DeepEqual(f["virtualization_tech_host"], c.host) {
			t.Errorf("%s: %v %v %v %v", c.name, f["virtualization_type"], f["virtualization_role"], f["virtualization_tech_guest"], f["virtualization_tech_host"])
		}
	}
}
