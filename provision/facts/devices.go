package facts

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	reScheduler = regexp.MustCompile(`^.*?(\[(.*)\])`)
	rePCISlot   = regexp.MustCompile(`.+/([a-f0-9]{4}:[a-f0-9]{2}:[0|1][a-f0-9]\.[0-7])/`)
)

// linkKinds are the /dev/disk directories of ansible_device_links.
var linkKinds = []struct{ kind, dir string }{
	{"ids", "/dev/disk/by-id/"}, {"uuids", "/dev/disk/by-uuid/"}, {"labels", "/dev/disk/by-label/"},
}

// devices sets ansible_devices (one entry per /sys/block device, with its
// partitions) and ansible_device_links, as Ansible's Linux hardware
// collector does. Differences: a disk's serial is read from sysfs even
// where Ansible would ask sg_inq (one process per disk).
func devices(r *raw, f map[string]any) {
	devs := map[string]any{}
	f["devices"] = devs
	if !r.paths["/sys/block"] {
		return
	}
	links := r.symlinks()
	all := map[string]map[string][]string{}
	for _, k := range linkKinds {
		all[k.kind] = map[string][]string{}
	}
	var names []string
	for l := range links {
		names = append(names, l)
	}
	sort.Strings(names)
	wwn := map[string]string{}
	for _, l := range names {
		for _, k := range linkKinds {
			if entry, ok := strings.CutPrefix(l, k.dir); ok && !strings.Contains(entry, "/") {
				t := path.Base(links[l])
				all[k.kind][t] = append(all[k.kind][t], entry)
				if k.kind == "ids" && strings.HasPrefix(entry, "wwn-") {
					wwn[t] = entry[4:]
				}
			}
		}
	}
	all["masters"] = map[string][]string{}
	for _, p := range r.files["slaves"] { // /sys/block/<dev>/slaves/<slave>
		if e := strings.Split(p, "/"); len(e) == 6 {
			all["masters"][e[5]] = append(all["masters"][e[5]], e[3])
		}
	}
	devLinks := map[string]any{}
	for kind, m := range all {
		out := map[string]any{}
		for t, entries := range m {
			sort.Strings(entries)
			out[t] = strs(dedupe(entries))
		}
		devLinks[kind] = out
	}
	f["device_links"] = devLinks
	linksOf := func(name string) map[string]any {
		out := map[string]any{}
		for kind, m := range all {
			out[kind] = strs(dedupe(m[name]))
		}
		return out
	}
	pci := map[string]string{}
	for _, line := range r.files["lspci"] {
		if slot, rest, ok := strings.Cut(line, " "); ok {
			pci[slot] = strings.TrimLeft(rest, " \t")
		}
	}
	var disk map[string]any
	for _, o := range r.objects {
		switch o.kind {
		case "blk":
			disk = blockDevice(o, linksOf(o.name), wwn, links, pci)
			devs[o.name] = disk
		case "part":
			if disk != nil {
				disk["partitions"].(map[string]any)[o.name] = partition(o, linksOf(o.name), links, r.paths["/dev/disk/by-uuid"])
			}
		}
	}
}

func blockDevice(o *object, links map[string]any, wwn, symlinks, pci map[string]string) map[string]any {
	d := map[string]any{"virtual": 1, "links": links, "partitions": map[string]any{}}
	if _, ok := o.get("nolink"); ok {
		if _, ok := o.get("hasdevice"); ok {
			d["virtual"] = 0
		}
	}
	for _, k := range []string{"vendor", "model", "sas_address", "sas_device_handle"} {
		d[k] = attrOrNil(o, "device/"+k)
	}
	if v := attrOrNil(o, "device/serial"); v != nil {
		d["serial"] = v
	}
	d["removable"] = attrOrNil(o, "removable")
	d["support_discard"] = attrOrNil(o, "queue/discard_granularity")
	if w, ok := wwn[o.name]; ok {
		d["wwn"] = w
	}
	d["rotational"] = attrOrNil(o, "queue/rotational")
	d["scheduler_mode"] = ""
	if s, ok := o.get("queue/scheduler"); ok {
		if m := reScheduler.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
			d["scheduler_mode"] = m[2]
		}
	}
	var sectors any = 0
	if v := attrOrNil(o, "size"); v != nil {
		sectors = v
	}
	d["sectors"] = sectors
	d["sectorsize"] = sectorSize(o)
	d["size"] = bytesToHuman(toFloat(sectors) * 512)
	d["host"] = ""
	if t, ok := symlinks["/sys/block/"+o.name]; ok && len(pci) > 0 {
		if m := rePCISlot.FindStringSubmatch(path.Join("/sys/block", t) + "/"); m != nil {
			if h, ok := pci[m[1]]; ok {
				d["host"] = h
			}
		}
	}
	d["holders"] = strs(o.all("holder"))
	return d
}

func partition(o *object, links map[string]any, symlinks map[string]string, byUUID bool) map[string]any {
	p := map[string]any{"links": links}
	var start, sectors any = 0, 0
	if v := attrOrNil(o, "start"); v != nil {
		start = v
	}
	if v := attrOrNil(o, "size"); v != nil {
		sectors = v
	}
	p["start"], p["sectors"] = start, sectors
	p["sectorsize"] = sectorSize(o)
	p["size"] = bytesToHuman(toFloat(sectors) * 512)
	p["uuid"] = nil
	if byUUID {
		var names []string
		for l, t := range symlinks {
			if strings.HasPrefix(l, "/dev/disk/by-uuid/") && path.Join("/dev/disk/by-uuid", t) == "/dev/"+o.name {
				names = append(names, l)
			}
		}
		sort.Strings(names)
		if len(names) > 0 {
			p["uuid"] = path.Base(names[0])
		}
	}
	p["holders"] = strs(o.all("holder"))
	return p
}

// sectorSize is the logical block size, else the hardware sector size,
// else 512 (a number where the others are strings, as in Ansible).
func sectorSize(o *object) any {
	if v := attrOrNil(o, "queue/logical_block_size"); v != nil {
		return v
	}
	if v := attrOrNil(o, "queue/hw_sector_size"); v != nil {
		return v
	}
	return 512
}

// attrOrNil is an attribute's value stripped, or nil when it is missing or
// empty (Ansible's get_file_content).
func attrOrNil(o *object, k string) any {
	v, _ := o.get(k)
	if v = strings.TrimSpace(v); v == "" {
		return nil
	}
	return v
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case string:
		n, _ := strconv.ParseFloat(x, 64)
		return n
	case int:
		return float64(x)
	}
	return 0
}

// bytesToHuman formats a size as Ansible's bytes_to_human: "256.00 GB".
func bytesToHuman(size float64) string {
	for i, u := range []string{"Y", "Z", "E", "P", "T", "G", "M", "K"} {
		if limit := math.Ldexp(1, 10*(8-i)); size >= limit {
			return fmt.Sprintf("%.2f %sB", size/limit, u)
		}
	}
	return fmt.Sprintf("%.2f Bytes", size)
}

func dedupe(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
