package facts

import (
	"fmt"
	"sort"
	"strings"
)

// collector is one of ansible-core 2.14's fact collectors as it stands on
// Linux (default_collectors.py, after find_collectors_for_platform): its
// name, the other subset names (_fact_ids) that select it, and the
// collectors it needs (required_facts), which Ansible runs with it.
type collector struct {
	name     string
	ids      []string
	requires []string
}

// collectors are ansible-core 2.14's collectors. The names and ids are
// the same on every platform Ansible knows (each platform's class keeps
// the generic class's name and _fact_ids), so one table serves all.
var collectors = []collector{
	{name: "apparmor"},
	{name: "caps", ids: []string{"system_capabilities", "system_capabilities_enforced"}},
	{name: "chroot", ids: []string{"is_chroot"}},
	{name: "cmdline"},
	{name: "date_time"},
	{name: "distribution", ids: []string{"distribution_major_version", "distribution_release", "distribution_version", "os_family"}},
	{name: "dns"},
	{name: "env"},
	{name: "facter", ids: []string{"facter"}},
	{name: "fibre_channel_wwn"},
	{name: "fips"},
	{name: "hardware", ids: []string{"devices", "mounts", "processor", "processor_cores", "processor_count"}, requires: []string{"platform"}},
	{name: "iscsi"},
	{name: "loadavg"},
	{name: "local"},
	{name: "lsb"},
	{name: "network", ids: []string{"all_ipv4_addresses", "all_ipv6_addresses", "default_ipv4", "default_ipv6", "interfaces"}, requires: []string{"distribution", "platform"}},
	{name: "nvme"},
	{name: "ohai"},
	{name: "pkg_mgr", requires: []string{"distribution"}},
	{name: "platform", ids: []string{"architecture", "kernel", "kernel_version", "machine", "machine_id", "python_version", "system"}},
	{name: "python"},
	{name: "selinux"},
	{name: "service_mgr", requires: []string{"distribution", "platform"}},
	{name: "ssh_pub_keys", ids: []string{"ssh_host_key_dsa_public", "ssh_host_key_ecdsa_public", "ssh_host_key_ed25519_public", "ssh_host_key_rsa_public", "ssh_host_pub_keys"}},
	{name: "user", ids: []string{"effective_group_ids", "effective_user_id", "real_user_id", "user_dir", "user_gecos", "user_gid", "user_id", "user_shell", "user_uid"}},
	{name: "virtual", ids: []string{"virtualization_role", "virtualization_tech_guest", "virtualization_tech_host", "virtualization_type"}},
}

// minimalSubset is the setup module's minimal_gather_subset: the
// collectors gathered whatever gather_subset says, unless "!min".
var minimalSubset = []string{"apparmor", "caps", "cmdline", "date_time", "distribution", "dns", "env", "fips",
	"local", "lsb", "pkg_mgr", "platform", "python", "selinux", "service_mgr", "ssh_pub_keys", "user"}

var minimal = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range minimalSubset {
		m[n] = true
	}
	return m
}()

// collectorFacts names, for each collector, the facts Parse can return
// that the collector returns in Ansible. Each network interface's own
// fact (ansible_eth0, …) is the network collector's too: see collectorOf.
var collectorFacts = map[string][]string{
	"apparmor":  {"apparmor"},
	"caps":      {"system_capabilities", "system_capabilities_enforced"},
	"chroot":    {"is_chroot"},
	"cmdline":   {"cmdline", "proc_cmdline"},
	"date_time": {"date_time"},
	"distribution": {"distribution", "distribution_version", "distribution_release", "distribution_major_version",
		"distribution_minor_version", "os_family", "distribution_file_path", "distribution_file_variety",
		"distribution_file_parsed", "distribution_file_search_string"},
	"dns":               {"dns"},
	"env":               {"env"},
	"fibre_channel_wwn": {"fibre_channel_wwn"},
	"fips":              {"fips"},
	"hardware": {"processor", "processor_cores", "processor_count", "processor_threads_per_core", "processor_vcpus",
		"processor_nproc", "memtotal_mb", "memfree_mb", "swaptotal_mb", "swapfree_mb", "memory_mb",
		"bios_date", "bios_vendor", "bios_version", "board_asset_tag", "board_name", "board_serial", "board_vendor",
		"board_version", "chassis_asset_tag", "chassis_serial", "chassis_vendor", "chassis_version", "form_factor",
		"product_name", "product_serial", "product_uuid", "product_version", "system_vendor",
		"devices", "device_links", "uptime_seconds", "lvm", "mounts"},
	"iscsi":   {"iscsi_iqn"},
	"loadavg": {"loadavg"},
	"local":   {"local"},
	"lsb":     {"lsb"},
	"network": {"interfaces", "default_ipv4", "default_ipv6", "all_ipv4_addresses", "all_ipv6_addresses"},
	"nvme":    {"hostnqn"},
	"pkg_mgr": {"pkg_mgr"},
	"platform": {"system", "kernel", "kernel_version", "machine", "python_version", "fqdn", "hostname", "nodename",
		"domain", "userspace_bits", "architecture", "userspace_architecture", "machine_id"},
	"python":      {"python"},
	"selinux":     {"selinux", "selinux_python_present"},
	"service_mgr": {"service_mgr"},
	"ssh_pub_keys": {"ssh_host_key_dsa_public", "ssh_host_key_dsa_public_keytype", "ssh_host_key_rsa_public",
		"ssh_host_key_rsa_public_keytype", "ssh_host_key_ecdsa_public", "ssh_host_key_ecdsa_public_keytype",
		"ssh_host_key_ed25519_public", "ssh_host_key_ed25519_public_keytype"},
	"user": {"user_id", "user_uid", "user_gid", "user_gecos", "user_dir", "user_shell", "real_user_id",
		"effective_user_id", "real_group_id", "effective_group_id"},
	"virtual": {"virtualization_type", "virtualization_role", "virtualization_tech_guest", "virtualization_tech_host"},
}

// factCollectors maps each fact of collectorFacts to its collector.
var factCollectors = func() map[string]string {
	m := map[string]string{}
	for c, names := range collectorFacts {
		for _, n := range names {
			m[n] = c
		}
	}
	return m
}()

// subsetIDs maps every valid gather_subset name (a collector's name or
// one of its ids) to the collector it selects.
var subsetIDs = func() map[string]*collector {
	m := map[string]*collector{}
	for i := range collectors {
		c := &collectors[i]
		m[c.name] = c
		for _, id := range c.ids {
			m[id] = c
		}
	}
	return m
}()

// badSubsetMsg is the list of names Ansible's "Bad subset" message gives.
var badSubsetMsg = func() string {
	names := make([]string, 0, len(subsetIDs))
	for n := range subsetIDs {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}()

// Subset returns the facts, of all (Parse's complete set), that
// ansible-core 2.14's setup module returns for this gather_subset, by
// Ansible's rules (collector.py's get_collector_names): the "min"
// collectors always, unless "!min"; "all" every collector; a name selects
// its collector, "!name" drops it and, for a collector's name, the
// subset names (ids) that also select it ("!hardware" drops "devices",
// "mounts", …; "all,!devices" still gathers them all, "hardware" and the
// other ids still selecting it), but a name given without "!" stays;
// "!all" drops all but
// the "min" collectors; collectors another one needs come back
// ("!distribution" with pkg_mgr gathered still gathers distribution). So
// "!hardware" alone is the "min" facts only, and "all,!hardware" all but
// the hardware facts, exactly as Ansible has it. No subsets means "all".
//
// An unknown name is an error with Ansible's message ("Bad subset 'x'
// given to Ansible. gather_subset options allowed: all, …"), and "!x"
// of an unknown x is ignored, as Ansible does. subsets are the list the
// module gets: a comma string is already split (at commas, nothing
// trimmed, as Ansible's list type splits it).
//
// The result has gather_subset (subsets as given, ["all"] when empty) and
// module_setup (true), as setup returns them. "ohai" and "facter" are
// valid names, but tender runs neither tool: they add no facts, as in
// Ansible on a host without them (on a host with them, Ansible would
// return ohai_* and facter_* facts tender does not have).
//
// all is not changed; values are shared, not copied.
func Subset(all map[string]any, subsets []string) (map[string]any, error) {
	selected, err := selectCollectors(subsets)
	if err != nil {
		return nil, err
	}
	ifaces := interfaceFacts(all)
	out := make(map[string]any, len(all))
	for k, v := range all {
		if selected[collectorOf(k, ifaces)] {
			out[k] = v
		}
	}
	given := make([]any, 0, len(subsets))
	for _, s := range subsets {
		given = append(given, s)
	}
	if len(given) == 0 {
		given = []any{"all"}
	}
	out["gather_subset"] = given
	out["module_setup"] = true
	return out, nil
}

// selectCollectors follows get_collector_names and _solve_deps: the names
// of the collectors a gather_subset runs.
func selectCollectors(subsets []string) (map[string]bool, error) {
	if len(subsets) == 0 {
		subsets = []string{"all"}
	}
	add, exclude, explicit := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range append([]string{"min"}, subsets...) {
		switch {
		case s == "min":
			for _, n := range minimalSubset {
				add[n] = true
			}
		case s == "all":
			for n := range subsetIDs {
				add[n] = true
			}
		case strings.HasPrefix(s, "!"):
			n := s[1:]
			switch n {
			case "min":
				for _, m := range minimalSubset {
					exclude[m] = true
				}
			case "all": // valid_subsets - minimal_gather_subset
				for id := range subsetIDs {
					if !minimal[id] {
						exclude[id] = true
					}
				}
			default:
				exclude[n] = true
				if c, ok := subsetIDs[n]; ok && c.name == n {
					for _, id := range c.ids {
						exclude[id] = true
					}
				}
			}
		default:
			if subsetIDs[s] == nil {
				return nil, fmt.Errorf("Bad subset '%s' given to Ansible. gather_subset options allowed: all, %s", s, badSubsetMsg)
			}
			explicit[s], add[s] = true, true
		}
	}
	for n := range exclude {
		if !explicit[n] {
			delete(add, n)
		}
	}
	selected := map[string]bool{}
	for n := range add {
		selected[subsetIDs[n].name] = true
	}
	for changed := true; changed; { // the collectors they need, and theirs
		changed = false
		for n := range selected {
			for _, r := range subsetIDs[n].requires {
				if !selected[r] {
					selected[r], changed = true, true
				}
			}
		}
	}
	return selected, nil
}

// interfaceFacts are the names of the per-interface facts (eth0, br_test,
// …) of a fact set, from its interfaces list.
func interfaceFacts(all map[string]any) map[string]bool {
	out := map[string]bool{}
	l, _ := all["interfaces"].([]any)
	for _, n := range l {
		if s, ok := n.(string); ok {
			out[strings.ReplaceAll(s, "-", "_")] = true
		}
	}
	return out
}

// collectorOf names the collector that returns fact k ("" for none
// known). An interface whose fact name is another fact's is left to that
// fact's collector.
func collectorOf(k string, ifaces map[string]bool) string {
	if c, ok := factCollectors[k]; ok {
		return c
	}
	if ifaces[k] {
		return "network"
	}
	return ""
}
