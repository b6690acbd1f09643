package facts

import (
	"strconv"
	"strings"
)

// cpu sets ansible_processor (the list) and the processor_* counts from
// /proc/cpuinfo by the rules of Ansible's Linux hardware collector, quirks
// included (the count of sockets and cores comes from the first CPU).
func cpu(r *raw, f map[string]any) {
	lines, ok := r.files["/proc/cpuinfo"]
	if !ok {
		return
	}
	arch, _ := f["architecture"].(string)
	xen := r.paths["/proc/xen"] || strings.TrimSpace(r.values["hypervisor"]) == "xen"
	processor := []any{}
	var i, vendorIDs, modelNames, processors int
	xenParavirt := false
	physid, coreid := "0", "0"
	sockets, cores := orderedCounts{}, orderedCounts{}
	for _, line := range lines {
		key, val, _ := strings.Cut(line, ":")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if xen && key == "flags" && !strings.Contains(val, "vme") {
			xenParavirt = true
		}
		switch key {
		case "model name", "Processor", "vendor_id", "cpu", "Vendor", "processor":
			processor = append(processor, val)
			switch key {
			case "vendor_id":
				vendorIDs++
			case "model name":
				modelNames++
			case "processor":
				processors++
			}
			i++
		case "physical id":
			physid = val
			if !sockets.has(physid) {
				sockets.set(physid, 1)
			}
		case "core id":
			coreid = val
			if !sockets.has(coreid) {
				cores.set(coreid, 1)
			}
		case "cpu cores":
			sockets.set(physid, atoi(val))
		case "siblings":
			cores.set(coreid, atoi(val))
		case "# processors":
			f["processor_cores"] = atoi(val)
		case "ncpus active":
			i = atoi(val)
		}
	}
	f["processor"] = processor
	if vendorIDs > 0 && vendorIDs == modelNames {
		i = vendorIDs
	}
	if strings.HasPrefix(arch, "armv") || strings.HasPrefix(arch, "aarch") || strings.HasPrefix(arch, "ppc") {
		i = processors
	}
	if arch == "s390x" {
		return
	}
	if xenParavirt {
		f["processor_count"], f["processor_cores"], f["processor_threads_per_core"], f["processor_vcpus"] = i, i, 1, i
		return
	}
	count := i
	if len(sockets.keys) > 0 {
		count = len(sockets.keys)
	}
	coresPer := 1
	if len(sockets.keys) > 0 && sockets.first() != 0 {
		coresPer = sockets.first()
	}
	threads := 1 / coresPer
	if len(cores.keys) > 0 {
		threads = cores.first() / coresPer
	}
	f["processor_count"], f["processor_cores"], f["processor_threads_per_core"] = count, coresPer, threads
	f["processor_vcpus"] = threads * count * coresPer
	f["processor_nproc"] = processors
	if n, ok := cpuListLen(r.values["cpus_allowed"]); ok {
		f["processor_nproc"] = n
	}
}

// orderedCounts is a dict that remembers its first key, as Python's does.
type orderedCounts struct {
	keys []string
	vals map[string]int
}

func (c *orderedCounts) has(k string) bool { _, ok := c.vals[k]; return ok }

func (c *orderedCounts) set(k string, v int) {
	if c.vals == nil {
		c.vals = map[string]int{}
	}
	if !c.has(k) {
		c.keys = append(c.keys, k)
	}
	c.vals[k] = v
}

func (c *orderedCounts) first() int { return c.vals[c.keys[0]] }

// cpuListLen counts the CPUs of a list such as "0-3,8,10-11" (the CPUs
// the process may run on, as os.sched_getaffinity counts them).
func cpuListLen(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	n := 0
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || b < a {
			return 0, false
		}
		n += b - a + 1
	}
	return n, true
}

// memory sets memtotal_mb, memfree_mb, swaptotal_mb, swapfree_mb and
// memory_mb from /proc/meminfo, in MiB rounded down as Ansible does.
func memory(r *raw, f map[string]any) {
	lines, ok := r.files["/proc/meminfo"]
	if !ok {
		return
	}
	m := map[string]int{}
	for _, line := range lines {
		k, v, _ := strings.Cut(line, ":")
		fs := strings.Fields(v)
		if len(fs) == 0 {
			continue
		}
		n, err := strconv.Atoi(fs[0])
		if err != nil {
			continue
		}
		m[strings.ToLower(k)] = n / 1024
		switch k {
		case "MemTotal", "MemFree", "SwapTotal", "SwapFree":
			f[strings.ToLower(k)+"_mb"] = n / 1024
		}
	}
	get := func(k string) any {
		if v, ok := m[k]; ok {
			return v
		}
		return nil
	}
	has := func(ks ...string) bool {
		for _, k := range ks {
			if _, ok := m[k]; !ok {
				return false
			}
		}
		return true
	}
	var realUsed, ncFree, ncUsed, swapUsed any
	if has("memtotal", "memfree") {
		realUsed = m["memtotal"] - m["memfree"]
	}
	if has("cached", "memfree", "buffers") {
		ncFree = m["cached"] + m["memfree"] + m["buffers"]
		if has("memtotal") {
			ncUsed = m["memtotal"] - ncFree.(int)
		}
	}
	if has("swaptotal", "swapfree") {
		swapUsed = m["swaptotal"] - m["swapfree"]
	}
	f["memory_mb"] = map[string]any{
		"real":    map[string]any{"total": get("memtotal"), "used": realUsed, "free": get("memfree")},
		"nocache": map[string]any{"free": ncFree, "used": ncUsed},
		"swap": map[string]any{"total": get("swaptotal"), "free": get("swapfree"), "used": swapUsed,
			"cached": get("swapcached")},
	}
}

// formFactors are the SMBIOS chassis types, by number.
var formFactors = []string{"Unknown", "Other", "Unknown", "Desktop",
	"Low Profile Desktop", "Pizza Box", "Mini Tower", "Tower",
	"Portable", "Laptop", "Notebook", "Hand Held", "Docking Station",
	"All In One", "Sub Notebook", "Space-saving", "Lunch Box",
	"Main Server Chassis", "Expansion Chassis", "Sub Chassis",
	"Bus Expansion Chassis", "Peripheral Chassis", "RAID Chassis",
	"Rack Mount Chassis", "Sealed-case PC", "Multi-system",
	"CompactPCI", "AdvancedTCA", "Blade", "Blade Enclosure",
	"Tablet", "Convertible", "Detachable", "IoT Gateway",
	"Embedded PC", "Mini PC", "Stick PC"}

// dmiFacts maps each DMI fact to its /sys/devices/virtual/dmi/id file and
// to dmidecode's section and field.
var dmiFacts = []struct{ fact, file, section, field string }{
	{"bios_date", "bios_date", "BIOS Information", "Release Date"},
	{"bios_vendor", "bios_vendor", "BIOS Information", "Vendor"},
	{"bios_version", "bios_version", "BIOS Information", "Version"},
	{"board_asset_tag", "board_asset_tag", "Base Board Information", "Asset Tag"},
	{"board_name", "board_name", "Base Board Information", "Product Name"},
	{"board_serial", "board_serial", "Base Board Information", "Serial Number"},
	{"board_vendor", "board_vendor", "Base Board Information", "Manufacturer"},
	{"board_version", "board_version", "Base Board Information", "Version"},
	{"chassis_asset_tag", "chassis_asset_tag", "Chassis Information", "Asset Tag"},
	{"chassis_serial", "chassis_serial", "Chassis Information", "Serial Number"},
	{"chassis_vendor", "chassis_vendor", "Chassis Information", "Manufacturer"},
	{"chassis_version", "chassis_version", "Chassis Information", "Version"},
	{"form_factor", "chassis_type", "Chassis Information", "Type"},
	{"product_name", "product_name", "System Information", "Product Name"},
	{"product_serial", "product_serial", "System Information", "Serial Number"},
	{"product_uuid", "product_uuid", "System Information", "UUID"},
	{"product_version", "product_version", "System Information", "Version"},
	{"system_vendor", "sys_vendor", "System Information", "Manufacturer"},
}

// dmi sets the system_vendor, product_*, bios_*, board_*, chassis_* and
// form_factor facts: from the kernel's DMI files ("NA" for what is missing
// or unreadable), else from dmidecode's output, else all "NA".
func dmi(r *raw, f map[string]any) {
	if r.paths["/sys/devices/virtual/dmi/id/product_name"] {
		for _, d := range dmiFacts {
			v, ok := r.values["dmi_"+d.file]
			v = strings.TrimSpace(v)
			switch {
			case !ok || v == "":
				f[d.fact] = "NA"
			case d.fact == "form_factor":
				f[d.fact] = formFactor(v)
			default:
				f[d.fact] = v
			}
		}
		return
	}
	decoded := dmidecode(r.files["dmidecode"])
	for _, d := range dmiFacts {
		f[d.fact] = "NA"
		if v, ok := decoded[d.section+"\x00"+d.field]; ok {
			f[d.fact] = v
		}
	}
}

func formFactor(v string) string {
	n, err := strconv.Atoi(v)
	if err != nil {
		return "unknown (" + v + ")"
	}
	if n < 0 {
		n += len(formFactors) // Python's negative index
	}
	if n < 0 || n >= len(formFactors) {
		return "unknown (" + v + ")"
	}
	return formFactors[n]
}

// dmidecode reads `dmidecode -q -t 0,1,2,3`: section title lines, then
// tab-indented "Field: value" lines. The first section of a kind counts.
func dmidecode(lines []string) map[string]string {
	out := map[string]string{}
	section := ""
	seen := map[string]bool{}
	for _, line := range lines {
		if !strings.HasPrefix(line, "\t") {
			section = strings.TrimSpace(line)
			if seen[section] {
				section = "" // a second chassis: keep the first
			}
			seen[section] = true
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && section != "" && !strings.HasPrefix(line, "\t\t") {
			if _, dup := out[section+"\x00"+k]; !dup {
				out[section+"\x00"+k] = strings.TrimSpace(v)
			}
		}
	}
	return out
}

// uptime sets uptime_seconds from /proc/uptime.
func uptime(r *raw, f map[string]any) {
	fs := strings.Fields(r.values["uptime"])
	if len(fs) == 0 {
		return
	}
	if s, err := strconv.ParseFloat(fs[0], 64); err == nil {
		f["uptime_seconds"] = int(s)
	}
}

// lvm sets ansible_lvm: "N/A" unless the user is root and the host has
// the LVM tools, else their volume groups, logical and physical volumes.
func lvm(r *raw, f map[string]any) {
	if r.bins["vgs"] == "" || !r.isRoot() {
		f["lvm"] = "N/A"
		return
	}
	dm := map[string]string{}
	for _, line := range r.files["dm_name"] {
		if dev, name, ok := strings.Cut(line, " "); ok {
			dm[dev] = name
		}
	}
	vgs, lvs, pvs := map[string]any{}, map[string]any{}, map[string]any{}
	for _, line := range r.files["vgs"] {
		if it := strings.Split(strings.TrimSpace(line), ","); len(it) >= 3 {
			vgs[it[0]] = map[string]any{"size_g": it[len(it)-2], "free_g": it[len(it)-1], "num_lvs": it[2], "num_pvs": it[1]}
		}
	}
	for _, line := range r.files["lvs"] {
		if it := strings.Split(strings.TrimSpace(line), ","); len(it) >= 4 {
			lvs[it[0]] = map[string]any{"size_g": it[3], "vg": it[1]}
		}
	}
	for _, line := range r.files["pvs"] {
		if it := strings.Split(strings.TrimSpace(line), ","); len(it) >= 6 {
			name := it[0]
			if n, ok := dm[strings.TrimPrefix(name, "/dev/")]; ok && strings.HasPrefix(name, "/dev/dm-") {
				name = "/dev/mapper/" + n
			}
			pvs[name] = map[string]any{"size_g": it[4], "free_g": it[5], "vg": it[1]}
		}
	}
	f["lvm"] = map[string]any{"lvs": lvs, "vgs": vgs, "pvs": pvs}
}
