package facts

import (
	"regexp"
	"sort"
	"strings"
)

var (
	reDockerCgroup = regexp.MustCompile(`/docker(/|-[0-9a-f]+\.scope)`)
	reLxcCgroup    = regexp.MustCompile(`/lxc/|/machine\.slice/machine-lxc`)
	reVxID         = regexp.MustCompile(`^\d+`)
)

// virt is the virtualization facts being built: the first technology
// found names the type and role, every one found joins the guest or host
// set.
type virt struct {
	typ, role   string
	found       bool
	guest, host map[string]bool
}

// guestOf records a guest technology; the first found sets type and role
// (an empty role leaves the role as it is).
func (v *virt) guestOf(tech, typ, role string) {
	v.guest[tech] = true
	v.set(typ, role)
}

func (v *virt) set(typ, role string) {
	if v.found {
		return
	}
	v.typ = typ
	if role != "" {
		v.role = role
	}
	v.found = true
}

// virtualization sets virtualization_type, _role, _tech_guest and
// _tech_host by the checks of Ansible's Linux virtual collector, in its
// order: container marks (cgroups, PID 1's environment, systemd, docker's
// files), OpenVZ, Xen, DMI vendor strings, VServer, /proc/cpuinfo, kernel
// modules, dmidecode's product name, /dev/kvm.
func virtualization(r *raw, f map[string]any) {
	v := &virt{guest: map[string]bool{}, host: map[string]bool{}}
	for _, line := range r.files["/proc/1/cgroup"] {
		if reDockerCgroup.MatchString(line) {
			v.guestOf("docker", "docker", "guest")
		}
		if reLxcCgroup.MatchString(line) {
			v.guestOf("lxc", "lxc", "guest")
		}
		if strings.Contains(line, "/system.slice/containerd.service") {
			v.guestOf("containerd", "containerd", "guest")
		}
	}
	pid1 := strings.Fields(r.values["pid1_container"])
	for _, k := range pid1 {
		switch k {
		case "lxc":
			v.guestOf("lxc", "lxc", "guest")
		case "podman":
			v.guestOf("podman", "podman", "guest")
		}
	}
	for _, k := range pid1 {
		if k == "any" {
			v.guestOf("container", "container", "guest")
		}
	}
	if r.paths["/proc/vz"] && !r.paths["/proc/lve"] {
		v.typ = "openvz"
		role := "guest"
		if r.paths["/proc/bc"] {
			role = "host"
			v.host["openvz"] = true
		} else {
			v.guest["openvz"] = true
		}
		if !v.found {
			v.role = role
		}
		v.found = true
	}
	sc := strings.TrimSpace(r.values["systemd_container"])
	if sc != "" {
		v.guestOf(sc, sc, "guest")
	}
	if r.paths["/.dockerenv"] || r.paths["/.dockerinit"] {
		v.guestOf("docker", "docker", "guest")
	}
	for _, t := range []string{"docker", "lxc", "podman", "openvz", "containerd"} {
		if v.guest[t] || sc != "" {
			v.guest["container"] = true
		}
	}
	if r.paths["/proc/xen"] {
		caps, _ := r.file("/proc/xen/capabilities")
		if strings.Contains(caps, "control_d") {
			v.host["xen"] = true
			v.set("xen", "host")
		} else {
			v.set("xen", "guest")
		}
		v.found = true
	}
	if !v.found {
		v.role = "guest"
	}
	dmiVirt(r, v)
	if !v.found {
		v.role = ""
	}
	if id := r.values["vxid"]; reVxID.MatchString(id) {
		role := "guest"
		if strings.HasPrefix(id, "0") {
			role = "host"
			v.host["linux_vserver"] = true
		} else {
			v.guest["linux_vserver"] = true
		}
		v.set("linux_vserver", role)
	}
	cpuVirt(r, v)
	moduleVirt(r, v)
	if r.paths["/dev/kvm"] {
		v.host["kvm"] = true
		v.set("kvm", "host")
	}
	if !v.found {
		v.typ, v.role = "NA", "NA"
	}
	if v.typ != "" {
		f["virtualization_type"] = v.typ
	}
	if v.role != "" {
		f["virtualization_role"] = v.role
	}
	f["virtualization_tech_guest"] = sortedSet(v.guest)
	f["virtualization_tech_host"] = sortedSet(v.host)
}

// dmiVirt is the DMI part: product, vendor and BIOS strings of known
// hypervisors, and dmidecode's product name where Ansible runs dmidecode.
func dmiVirt(r *raw, v *virt) {
	product := strings.TrimSpace(r.values["dmi_product_name"])
	vendor := strings.TrimSpace(r.values["dmi_sys_vendor"])
	family := strings.TrimSpace(r.values["dmi_product_family"])
	bios := strings.TrimSpace(r.values["dmi_bios_vendor"])
	guest := func(tech string) { v.guestOf(tech, tech, "") }
	switch product {
	case "KVM", "KVM Server", "Bochs", "AHV":
		guest("kvm")
	}
	if vendor == "oVirt" {
		guest("oVirt")
	}
	if vendor == "Red Hat" {
		if family == "RHV" {
			guest("RHV")
		} else if product == "RHEV Hypervisor" {
			guest("RHEV")
		}
	}
	switch product {
	case "VMware Virtual Platform", "VMware7,1":
		guest("VMware")
	case "OpenStack Compute", "OpenStack Nova":
		guest("openstack")
	}
	switch bios {
	case "Xen":
		guest("xen")
	case "innotek GmbH":
		guest("virtualbox")
	case "Amazon EC2", "DigitalOcean", "Hetzner":
		guest("kvm")
	}
	switch vendor {
	case "QEMU", "Amazon EC2", "DigitalOcean", "Google", "Scaleway", "Nutanix":
		guest("kvm")
	case "KubeVirt":
		guest("KubeVirt")
	case "Microsoft Corporation":
		guest("VirtualPC")
	case "Parallels Software International Inc.":
		guest("parallels")
	case "OpenStack Foundation":
		guest("openstack")
	}
}

// cpuVirt is the /proc/cpuinfo part: emulated CPUs name their hypervisor.
// On s390 Ansible asks lscpu for the hypervisor; tender reports what it
// reports without lscpu (ibm_systemz).
func cpuVirt(r *raw, v *virt) {
	for _, line := range r.files["/proc/cpuinfo"] {
		tech := ""
		for _, c := range cpuVirts {
			if c.re.MatchString(line) {
				tech = c.tech
				break
			}
		}
		if tech == "" {
			continue
		}
		if tech == "PR/SM" {
			v.guest["PR/SM"] = true
			tech = "ibm_systemz"
		}
		v.guest[tech] = true
		if !v.found {
			v.typ, v.role, v.found = tech, "guest", true
		}
	}
}

var cpuVirts = []struct {
	re   *regexp.Regexp
	tech string
}{
	{regexp.MustCompile(`^model name.*QEMU Virtual CPU`), "kvm"},
	{regexp.MustCompile(`^vendor_id.*User Mode Linux`), "uml"},
	{regexp.MustCompile(`^model name.*UML`), "uml"},
	{regexp.MustCompile(`^machine.*CHRP IBM pSeries .emulated by qemu.`), "kvm"},
	{regexp.MustCompile(`^vendor_id.*PowerVM Lx86`), "powervm_lx86"},
	{regexp.MustCompile(`^vendor_id.*IBM/S390`), "PR/SM"},
}

// moduleVirt is the kernel modules part: kvm, vboxdrv and virtio loaded.
func moduleVirt(r *raw, v *virt) {
	if r.values["module_kvm"] != "" {
		v.host["kvm"] = true
		if !v.found {
			v.typ, v.role = "kvm", "host"
		}
		if r.paths["/rhev"] && r.values["vdsm"] != "" {
			v.host["RHEV"] = true
			if !v.found {
				v.typ = "RHEV"
			}
		}
		v.found = true
	}
	if r.values["module_vboxdrv"] != "" {
		v.host["virtualbox"] = true
		v.set("virtualbox", "host")
	}
	if r.values["module_virtio"] != "" {
		v.host["kvm"] = true
		v.set("kvm", "guest")
	}
	if r.bins["dmidecode"] != "" && r.isRoot() {
		product, ok := r.values["dmi_product_name"]
		if !ok {
			product = dmidecode(r.files["dmidecode"])["System Information\x00Product Name"]
		}
		product = strings.TrimSpace(product)
		if strings.HasPrefix(product, "VMware") {
			v.guest["VMware"] = true
			v.set("VMware", "guest")
		}
		if strings.Contains(product, "BHYVE") {
			v.guest["bhyve"] = true
			v.set("bhyve", "guest")
		}
	}
}

func sortedSet(m map[string]bool) []any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strs(keys)
}
