// Package osfamily holds ansible-core 2.14's table of Linux distribution
// families (ansible_os_family): the facts report it, and Python
// interpreter discovery looks a distribution up by its family.
package osfamily

import "strings"

// families maps a distribution, as Ansible names it, to its family.
var families = func() map[string]string {
	m := map[string]string{}
	for family, names := range map[string][]string{
		"RedHat": {"RedHat", "RHEL", "Fedora", "CentOS", "Scientific", "SLC", "Ascendos", "CloudLinux",
			"PSBM", "OracleLinux", "OVS", "OEL", "Amazon", "Virtuozzo", "XenServer", "Alibaba",
			"EulerOS", "openEuler", "AlmaLinux", "Rocky", "TencentOS", "EuroLinux", "Kylin Linux Advanced Server"},
		"Debian": {"Debian", "Ubuntu", "Raspbian", "Neon", "KDE neon", "Linux Mint", "SteamOS", "Devuan",
			"Kali", "Cumulus Linux", "Pop!_OS", "Parrot", "Pardus GNU/Linux", "Uos", "Deepin", "OSMC"},
		"Suse": {"SuSE", "SLES", "SLED", "openSUSE", "openSUSE Tumbleweed", "SLES_SAP", "SUSE_LINUX",
			"openSUSE Leap"},
		"Archlinux": {"Archlinux", "Antergos", "Manjaro"},
		"Gentoo":    {"Gentoo", "Funtoo"},
		"Alpine":    {"Alpine"},
	} {
		for _, n := range names {
			m[n] = family
		}
	}
	return m
}()

// lower is families with both sides lowercased (Ansible's
// OS_FAMILY_LOWER).
var lower = func() map[string]string {
	m := map[string]string{}
	for k, v := range families {
		m[strings.ToLower(k)] = strings.ToLower(v)
	}
	return m
}()

// Of returns the family of the distribution name (as the facts name it:
// "Rocky", "Linux Mint"); ok is false for a distribution of no family.
func Of(name string) (string, bool) {
	f, ok := families[name]
	return f, ok
}

// OfLower looks a lowercased name up (an os-release ID such as "rocky")
// and returns the lowercased family; "" for none.
func OfLower(name string) string { return lower[name] }
