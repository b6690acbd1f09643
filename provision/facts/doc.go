// Package facts gathers a host's facts in one round trip, with no Python on
// the host: an embedded sh script (facts.sh, then python.sh) prints what
// the host has, and the parser turns it into the facts ansible-core 2.14's setup module
// returns by default, with the same names, types and values, computed by
// the same rules, quirks included: from ansible_os_family and
// ansible_distribution_version to ansible_mounts, ansible_devices, one
// ansible_<interface> per network interface, ansible_date_time and
// ansible_local (custom facts from /etc/ansible/facts.d, or setup's
// fact_path: ScriptFor).
//
// setup's other parameters, and a play's gather_subset, are honoured by
// filtering: the script always gathers everything (one round trip costs
// the same), then Subset keeps the facts of the collectors Ansible would
// have run for that gather_subset, by its rules ("min" always unless
// "!min", "!all" leaving the "min" ones, ids such as "devices" selecting
// their collector, collectors another needs brought back, unknown names
// refused with Ansible's message), and Filter the facts whose names match
// the filter's fnmatch patterns, ansible_ prefix added as Ansible adds
// it. gather_timeout becomes a bound on the whole round trip (Timeout):
// Ansible 2.14 uses it on BSD and Solaris mounts only, not on Linux.
// "ohai" and "facter" are accepted and add nothing: tender runs neither
// tool (Ansible returns ohai_* and facter_* facts where they are
// installed, nothing where they are not).
//
// Left out or read differently, because only a Python could know them or
// because asking would start a process per item:
//   - discovered_interpreter_python, Ansible's record of the Python it runs
//     its modules with: tender runs none. (Ansible adds it, past setup's
//     filter, to the facts of the first module it runs on a host.)
//   - an interface's features, timestamping, hw_timestamp_filters and
//     phc_index (ethtool: two processes per interface).
//   - a disk's serial by sg_inq (one process per disk): tender reads the
//     serial sysfs has (NVMe, virtio) also where sg_inq is installed.
//   - the hypervisor of s390 hosts, which Ansible asks lscpu for.
//   - loadavg has /proc/loadavg's two decimals, not getloadavg's finer
//     fixed-point values; userspace_bits is that of the host's own tools,
//     not of a Python.
//   - selinux is read from the kernel by libselinux's rules, also on hosts
//     whose Python lacks libselinux (where Ansible says "Missing selinux
//     Python library"); selinux_python_present says whether a Python on
//     the host could load it (false without Python).
//   - lsb comes from /etc/lsb-release where the host has that file, without
//     running lsb_release; tz_dst from the zone's current rule.
//   - a mount's uuid is "N/A" where Ansible asks udevadm about a device that
//     lsblk names differently (/dev/disk/by-uuid/…), and lsblk runs only
//     when a mounted device has a node on the host.
//
// The script's output is bounded (see facts.sh for the caps).
package facts
