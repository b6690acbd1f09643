package facts

import (
	"reflect"
	"testing"
)

// A host with IPv6, a bond of two NICs with their drivers, and a default
// route over each family.
var ipv6Host = []string{
	"b|ip|/sbin/ip",
	"o|net|bond0", "a|address|52:54:00:aa:bb:cc", "a|mtu|9000", "a|operstate|up", "a|type|1", "a|flags|0x1503",
	"a|bonding|1", "a|bond_slaves|ens3 ens4", "a|bond_mode|802.3ad 4", "a|bond_miimon|100", "a|bond_lacp_rate|fast 1",
	"a|bond_primary|ens3", "a|bond_all_slaves_active|0",
	"o|net|ens3", "a|address|52:54:00:aa:bb:cc", "a|mtu|9000", "a|operstate|up", "a|type|1", "a|speed|25000",
	"a|flags|0x1803", "a|perm_hwaddr|52:54:00:00:00:03",
	"o|net|lo", "a|address|00:00:00:00:00:00", "a|mtu|65536", "a|operstate|unknown", "a|type|772", "a|flags|0x9",
	"f|ls|lrwxrwxrwx 1 root root 0 Jan  1 00:00 /sys/class/net/ens3/device -> ../../../0000:00:03.0",
	"f|ls|lrwxrwxrwx 1 root root 0 Jan  1 00:00 /sys/class/net/ens3/device/driver/module -> ../../../../module/virtio_net",
	`f|ip|1: lo    inet 127.0.0.1/8 scope host lo\       valid_lft forever preferred_lft forever`,
	`f|ip|1: lo    inet6 ::1/128 scope host noprefixroute \       valid_lft forever preferred_lft forever`,
	`f|ip|4: bond0    inet 10.1.2.3/24 brd 10.1.2.255 scope global bond0\       valid_lft forever preferred_lft forever`,
	`f|ip|4: bond0    inet6 2001:db8::99/64 scope global temporary dynamic \       valid_lft 86000sec preferred_lft 14000sec`,
	`f|ip|4: bond0    inet6 2001:db8::5/64 scope global dynamic mngtmpaddr \       valid_lft 86000sec preferred_lft 14000sec`,
	`f|ip|4: bond0    inet6 fe80::5054:ff:feaa:bbcc/64 scope link \       valid_lft forever preferred_lft forever`,
	`f|ip|8.8.8.8 via 10.1.2.1 dev bond0 src 10.1.2.3 uid 0 \    cache`,
	`f|ip|2404:6800:400a:800::1012 from :: via fe80::1 dev bond0 proto ra src 2001:db8::5 metric 1024 pref medium`,
}

func TestNetworkIPv6AndBond(t *testing.T) {
	f := parseLines(t, ipv6Host...)
	if want := []any{"bond0", "ens3", "lo"}; !reflect.DeepEqual(f["interfaces"], want) {
		t.Errorf("interfaces = %v", f["interfaces"])
	}
	want6 := map[string]any{"address": "2001:db8::5", "gateway": "fe80::1", "interface": "bond0", "prefix": "64",
		"scope": "global", "macaddress": "52:54:00:aa:bb:cc", "mtu": 9000, "type": "bonding"}
	if !reflect.DeepEqual(f["default_ipv6"], want6) {
		t.Errorf("default_ipv6 = %v", f["default_ipv6"])
	}
	// Primary addresses first, then the temporary (secondary) one.
	if want := []any{"2001:db8::5", "fe80::5054:ff:feaa:bbcc", "2001:db8::99"}; !reflect.DeepEqual(f["all_ipv6_addresses"], want) {
		t.Errorf("all_ipv6_addresses = %v", f["all_ipv6_addresses"])
	}
	bond := f["bond0"].(map[string]any)
	for k, w := range map[string]any{"type": "bonding", "slaves": []any{"ens3", "ens4"}, "mode": "802.3ad", "miimon": "100",
		"lacp_rate": "fast", "primary": "ens3", "all_slaves_active": false, "promisc": true, "mtu": 9000, "active": true} {
		if !reflect.DeepEqual(bond[k], w) {
			t.Errorf("bond0.%s = %#v, want %#v", k, bond[k], w)
		}
	}
	ens3 := f["ens3"].(map[string]any)
	for k, w := range map[string]any{"pciid": "0000:00:03.0", "module": "virtio_net", "speed": 25000,
		"perm_macaddress": "52:54:00:00:00:03", "promisc": false} {
		if !reflect.DeepEqual(ens3[k], w) {
			t.Errorf("ens3.%s = %#v, want %#v", k, ens3[k], w)
		}
	}
	if _, ok := f["lo"].(map[string]any)["macaddress"]; ok {
		t.Error("lo has a macaddress of zeros")
	}
}

// TestNetworkWithoutIPv6 is a host whose kernel has IPv6 off: no inet6
// lines, no IPv6 route.
func TestNetworkWithoutIPv6(t *testing.T) {
	f := parseLines(t, "b|ip|/sbin/ip", "o|net|eth0", "a|address|02:42:ac:11:00:03", "a|mtu|1500", "a|type|1",
		`f|ip|7: eth0    inet 172.17.0.3/16 brd 172.17.255.255 scope global eth0\       valid_lft forever preferred_lft forever`,
		`f|ip|8.8.8.8 via 172.17.0.1 dev eth0 src 172.17.0.3 uid 0 \    cache`)
	if !reflect.DeepEqual(f["all_ipv6_addresses"], []any{}) || !reflect.DeepEqual(f["default_ipv6"], map[string]any{}) {
		t.Errorf("all_ipv6_addresses %v default_ipv6 %v", f["all_ipv6_addresses"], f["default_ipv6"])
	}
	if _, ok := f["eth0"].(map[string]any)["ipv6"]; ok {
		t.Error("eth0 has ipv6")
	}
}

// TestNetworkWithoutIP: without the ip command Ansible has no network facts.
func TestNetworkWithoutIP(t *testing.T) {
	f := parseLines(t, "o|net|eth0", "a|mtu|1500")
	for _, k := range []string{"interfaces", "eth0", "default_ipv4", "all_ipv4_addresses"} {
		if _, ok := f[k]; ok {
			t.Errorf("%s without ip", k)
		}
	}
}

// TestNetworkLabelsAndSecondaries: Ansible's reading of labelled and
// secondary addresses, quirks included, with iproute2 and with busybox's
// ip (which cannot list secondaries apart, so Ansible reads them as primary).
func TestNetworkLabelsAndSecondaries(t *testing.T) {
	base := []string{"b|ip|/sbin/ip", "o|net|eth0", "a|address|02:00:00:00:00:01", "a|mtu|1500", "a|type|1",
		`f|ip|2: eth0    inet 10.0.0.1/24 brd 10.0.0.255 scope global eth0\ x`,
		`f|ip|2: eth0    inet 10.0.0.2/24 brd 10.0.0.255 scope global secondary eth0\ x`,
		`f|ip|2: eth0    inet 10.0.0.3/24 brd 10.0.0.255 scope global secondary eth0:1\ x`,
		`f|ip|2: eth0    inet 10.5.0.1/16 scope global eth0:x\ x`,
		`f|ip|2: eth0    inet 192.0.2.9 peer 192.0.2.10/32 scope global eth0\ x`}
	sec := func(a, brd, mask, net, p string) map[string]any {
		return map[string]any{"address": a, "broadcast": brd, "netmask": mask, "network": net, "prefix": p}
	}
	f := parseLines(t, base...)
	if want := []any{"eth0", "eth0_x", "eth0_1"}; !reflect.DeepEqual(f["interfaces"], want) {
		t.Errorf("interfaces = %v", f["interfaces"])
	}
	eth0 := f["eth0"].(map[string]any)
	wantSec := []any{sec("192.0.2.9", "", "255.255.255.255", "192.0.2.9", "32"), sec("10.0.0.2", "10.0.0.255", "255.255.255.0", "10.0.0.0", "24"),
		sec("10.0.0.3", "10.0.0.255", "255.255.255.0", "10.0.0.0", "24")}
	if !reflect.DeepEqual(eth0["ipv4"], sec("10.0.0.1", "10.0.0.255", "255.255.255.0", "10.0.0.0", "24")) || !reflect.DeepEqual(eth0["ipv4_secondaries"], wantSec) {
		t.Errorf("eth0 ipv4 %v secondaries %v", eth0["ipv4"], eth0["ipv4_secondaries"])
	}
	if !reflect.DeepEqual(f["eth0_1"], map[string]any{"ipv4_secondaries": []any{sec("10.0.0.3", "10.0.0.255", "255.255.255.0", "10.0.0.0", "24")}}) ||
		!reflect.DeepEqual(f["eth0_x"], map[string]any{"ipv4": sec("10.5.0.1", "", "255.255.0.0", "10.5.0.0", "16")}) {
		t.Errorf("eth0_1 %v eth0_x %v", f["eth0_1"], f["eth0_x"])
	}
	f = parseLines(t, append(base, "v|ip_batch|no")...)
	if !reflect.DeepEqual(f["eth0_1"], map[string]any{"ipv4": sec("10.0.0.3", "10.0.0.255", "255.255.255.0", "10.0.0.0", "24")}) {
		t.Errorf("busybox: eth0_1 %v", f["eth0_1"])
	}
	if want := []any{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.5.0.1", "192.0.2.9"}; !reflect.DeepEqual(f["all_ipv4_addresses"], want) {
		t.Errorf("busybox: all_ipv4_addresses %v", f["all_ipv4_addresses"])
	}
}

func TestNetworkBridge(t *testing.T) {
	f := parseLines(t, "b|ip|/sbin/ip", "o|net|br-x1", "a|type|1", "a|mtu|1500", "a|bridge|1",
		"a|bridge_id|8000.0242ac110002", "a|stp_state|0", "a|brif|veth1", "a|brif|veth2")
	br, ok := f["br_x1"].(map[string]any) // the fact's name has _ for -
	if !ok || br["type"] != "bridge" || br["id"] != "8000.0242ac110002" || br["stp"] != false ||
		!reflect.DeepEqual(br["interfaces"], []any{"veth1", "veth2"}) || !reflect.DeepEqual(f["interfaces"], []any{"br-x1"}) {
		t.Errorf("bridge %v interfaces %v", br, f["interfaces"])
	}
}
