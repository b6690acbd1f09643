package facts

import (
	"net"
	"path"
	"strconv"
	"strings"
)

// The addresses ip is asked the routes to, as Ansible asks (no packet is sent).
const (
	route4Probe = "8.8.8.8"
	route6Probe = "2404:6800:400a:800::1012"
)

// interfaceTypes names /sys/class/net/*/type values as Ansible does.
var interfaceTypes = map[string]string{
	"1": "ether", "32": "infiniband", "512": "ppp", "772": "loopback", "65534": "tunnel",
}

// network sets ansible_interfaces, one fact per interface, default_ipv4,
// default_ipv6, all_ipv4_addresses and all_ipv6_addresses, from
// /sys/class/net and the ip command's addresses and routes, by the rules
// of Ansible's Linux network collector. Without ip there are none, as in
// Ansible.
func network(r *raw, f map[string]any) {
	if r.bins["ip"] == "" {
		return
	}
	var route4, route6 []string
	addrs := map[string][][]string{} // device → the words of its address lines
	for _, line := range r.files["ip"] {
		line, _, _ = strings.Cut(line, `\`) // -o ends each address with "\ valid_lft …"
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		switch {
		case words[0] == route4Probe && route4 == nil:
			route4 = words
		case words[0] == route6Probe && route6 == nil:
			route6 = words
		case len(words) > 2 && strings.HasSuffix(words[0], ":"):
			dev, _, _ := strings.Cut(words[1], "@")
			addrs[dev] = append(addrs[dev], words[2:])
		}
	}
	def4, def6 := defaultRoute(route4, route4Probe), defaultRoute(route6, route6Probe)
	n := &netState{ifaces: map[string]map[string]any{}, def4: def4, def6: def6,
		all4: []any{}, all6: []any{}}
	links := r.symlinks()
	for _, o := range r.objectsOf("net") {
		n.device(o, links, addrs[o.name], r.values["ip_batch"] == "no")
	}
	names := make([]any, 0, len(n.order))
	for _, name := range n.order {
		key := strings.ReplaceAll(name, ":", "_")
		names = append(names, key)
		f[strings.ReplaceAll(key, "-", "_")] = n.ifaces[name]
	}
	f["interfaces"] = names
	f["default_ipv4"], f["default_ipv6"] = def4, def6
	f["all_ipv4_addresses"], f["all_ipv6_addresses"] = n.all4, n.all6
}

// defaultRoute reads `ip route get` output: the interface, source address
// and gateway of the route to probe.
func defaultRoute(words []string, probe string) map[string]any {
	d := map[string]any{}
	for i := 0; i+1 < len(words); i++ {
		switch words[i] {
		case "dev":
			d["interface"] = words[i+1]
		case "src":
			d["address"] = words[i+1]
		case "via":
			if words[i+1] != probe {
				d["gateway"] = words[i+1]
			}
		}
	}
	return d
}

// netState is the network facts being built, interface by interface.
type netState struct {
	ifaces     map[string]map[string]any
	order      []string
	def4, def6 map[string]any
	all4, all6 []any
}

func (n *netState) iface(name string) map[string]any {
	if _, ok := n.ifaces[name]; !ok {
		n.order = append(n.order, name)
	}
	n.ifaces[name] = map[string]any{}
	return n.ifaces[name]
}

// device describes one /sys/class/net entry, then its addresses: the
// primary ones, then the secondary ones (busybox's ip cannot tell them
// apart, and Ansible then reads them all as primary).
func (n *netState) device(o *object, links map[string]string, lines [][]string, oneList bool) {
	dev := o.name
	d := n.iface(dev)
	d["device"] = dev
	mac, _ := o.get("address")
	mac = strings.TrimSpace(mac)
	if mac != "" && mac != "00:00:00:00:00:00" {
		d["macaddress"] = mac
	}
	if v, ok := o.get("mtu"); ok {
		d["mtu"] = atoi(v)
	}
	if v, ok := o.get("operstate"); ok {
		d["active"] = strings.TrimSpace(v) != "down"
	}
	sys := "/sys/class/net/" + dev
	if t, ok := links[sys+"/device/driver/module"]; ok {
		d["module"] = path.Base(t)
	}
	if v, ok := o.get("type"); ok {
		d["type"] = "unknown"
		if t, ok := interfaceTypes[strings.TrimSpace(v)]; ok {
			d["type"] = t
		}
	}
	if _, ok := o.get("bridge"); ok {
		d["type"] = "bridge"
		d["interfaces"] = strs(o.all("brif"))
		v, _ := o.get("bridge_id")
		d["id"] = strings.TrimSpace(v)
		if v, ok := o.get("stp_state"); ok {
			d["stp"] = strings.TrimSpace(v) == "1"
		}
	}
	if _, ok := o.get("bonding"); ok {
		d["type"] = "bonding"
		v, _ := o.get("bond_slaves")
		d["slaves"] = strs(strings.Fields(v))
		for _, k := range []string{"mode", "miimon", "lacp_rate"} {
			v, _ := o.get("bond_" + k)
			d[k] = firstField(v)
		}
		if v, _ := o.get("bond_primary"); strings.TrimSpace(v) != "" {
			d["primary"] = strings.TrimSpace(v)
			if v, ok := o.get("bond_all_slaves_active"); ok {
				d["all_slaves_active"] = strings.TrimSpace(v) == "1"
			}
		}
	}
	if v, ok := o.get("perm_hwaddr"); ok {
		d["perm_macaddress"] = strings.TrimSpace(v)
	}
	if t, ok := links[sys+"/device"]; ok {
		d["pciid"] = path.Base(t)
	}
	if v, ok := o.get("speed"); ok {
		if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			d["speed"] = s
		}
	}
	if v, ok := o.get("flags"); ok {
		if fl, err := strconv.ParseInt(strings.TrimSpace(v), 0, 64); err == nil {
			d["promisc"] = fl&0x100 != 0
		}
	}
	var primary, secondary [][]string
	for _, w := range lines {
		if !oneList && isSecondary(w) {
			secondary = append(secondary, w)
		} else {
			primary = append(primary, w)
		}
	}
	for _, w := range primary {
		n.address(dev, mac, w, false)
	}
	for _, w := range secondary {
		n.address(dev, mac, w, true)
	}
}

// isSecondary tells the addresses `ip addr show secondary` lists: IPv4
// secondaries and IPv6 temporary addresses (the same kernel flag).
func isSecondary(words []string) bool {
	for i, w := range words {
		if (w == "secondary" || w == "temporary") && (words[0] != "inet" || i < len(words)-1) {
			return true
		}
	}
	return false
}

// address reads one address line of device dev as Ansible's parser does,
// including its quirks: an IPv4 address labelled with another name (eth0:1)
// makes a fresh interface of that name each time.
func (n *netState) address(dev, mac string, words []string, secondary bool) {
	if len(words) < 2 {
		return
	}
	d := n.ifaces[dev]
	switch words[0] {
	case "inet":
		addr, plen, broadcast := words[1], "32", ""
		if a, p, ok := strings.Cut(words[1], "/"); ok {
			addr, plen = a, p
			if len(words) > 3 && words[2] == "brd" {
				broadcast = words[3]
			}
		}
		ip := net.ParseIP(addr).To4()
		bits, err := strconv.Atoi(plen)
		if ip == nil || err != nil || bits < 0 || bits > 32 {
			return
		}
		mask := net.CIDRMask(bits, 32)
		entry := map[string]any{"address": addr, "broadcast": broadcast, "netmask": net.IP(mask).String(),
			"network": ip.Mask(mask).String(), "prefix": plen}
		label := words[len(words)-1]
		target := d
		if label != dev {
			target = n.iface(label)
		}
		if _, ok := target["ipv4"]; !secondary && !ok {
			target["ipv4"] = entry
		} else {
			target["ipv4_secondaries"] = append(list(target["ipv4_secondaries"]), copyMap(entry))
		}
		if secondary {
			sec := list(d["ipv4_secondaries"])
			if label != dev {
				sec = append(sec, copyMap(entry))
			}
			d["ipv4_secondaries"] = sec
		}
		if n.def4["address"] == addr {
			for _, k := range []string{"broadcast", "netmask", "network", "prefix"} {
				n.def4[k] = entry[k]
			}
			n.def4["macaddress"], n.def4["mtu"], n.def4["alias"] = mac, d["mtu"], label
			n.def4["type"] = typeOr(d)
		}
		if !strings.HasPrefix(addr, "127.") {
			n.all4 = append(n.all4, addr)
		}
	case "inet6":
		var addr, prefix, scope string
		if len(words) > 5 && words[2] == "peer" {
			_, prefix, _ = strings.Cut(words[3], "/")
			addr, scope = words[1], words[5]
		} else if len(words) > 3 {
			addr, prefix, _ = strings.Cut(words[1], "/")
			scope = words[3]
		} else {
			return
		}
		d["ipv6"] = append(list(d["ipv6"]), map[string]any{"address": addr, "prefix": prefix, "scope": scope})
		if n.def6["address"] == addr {
			n.def6["prefix"], n.def6["scope"], n.def6["macaddress"] = prefix, scope, mac
			n.def6["mtu"], n.def6["type"] = d["mtu"], typeOr(d)
		}
		if addr != "::1" {
			n.all6 = append(n.all6, addr)
		}
	}
}

func typeOr(d map[string]any) any {
	if t, ok := d["type"]; ok {
		return t
	}
	return "unknown"
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func strs(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// symlinks reads the script's `ls -ld` lines: link path → target.
func (r *raw) symlinks() map[string]string {
	out := map[string]string{}
	for _, line := range r.files["ls"] {
		lhs, target, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		i := strings.Index(lhs, " /")
		if i < 0 {
			continue
		}
		out[lhs[i+1:]] = target
	}
	return out
}
