package facts

import (
	"regexp"
	"strings"
)

// distFiles are the release files Ansible's distribution collector tries,
// in its order, each with the parser (the variety) it reads the file with.
var distFiles = []struct {
	path, variety string
	allowEmpty    bool
}{
	{"/etc/altlinux-release", "Altlinux", false},
	{"/etc/oracle-release", "OracleLinux", false},
	{"/etc/slackware-version", "Slackware", false},
	{"/etc/centos-release", "CentOS", false},
	{"/etc/redhat-release", "RedHat", false},
	{"/etc/vmware-release", "VMwareESX", true},
	{"/etc/openwrt_release", "OpenWrt", false},
	{"/etc/os-release", "Amazon", false},
	{"/etc/system-release", "Amazon", false},
	{"/etc/alpine-release", "Alpine", false},
	{"/etc/arch-release", "Archlinux", true},
	{"/etc/os-release", "Archlinux", false},
	{"/etc/os-release", "SUSE", false},
	{"/etc/SuSE-release", "SUSE", false},
	{"/etc/gentoo-release", "Gentoo", false},
	{"/etc/os-release", "Debian", false},
	{"/etc/lsb-release", "Debian", false},
	{"/etc/lsb-release", "Mandriva", false},
	{"/etc/sourcemage-release", "SMGL", false},
	{"/usr/lib/os-release", "ClearLinux", false},
	{"/etc/coreos/update.conf", "Coreos", false},
	{"/etc/os-release", "Flatcar", false},
	{"/etc/os-release", "NA", false},
}

// distSearchStrings are the varieties recognised by a string in the file.
var distSearchStrings = map[string]string{
	"OracleLinux": "Oracle Linux", "RedHat": "Red Hat", "Altlinux": "ALT", "SMGL": "Source Mage GNU/Linux",
}

var reClearName = regexp.MustCompile(`NAME="(.*)"`)

// distributionFile sets distribution_file_path, _variety, _parsed and
// _search_string: which release file Ansible's collector settled on.
func distributionFile(r *raw, f map[string]any) {
	id := strings.ToLower(r.osRelease()["ID"])
	for _, d := range distFiles {
		content, ok := r.file(d.path)
		if d.path == "/usr/lib/os-release" && r.values["same_os_release"] != "" {
			content, ok = r.file("/etc/os-release")
		}
		if d.allowEmpty {
			if ok || r.paths[d.path] {
				f["distribution_file_path"], f["distribution_file_variety"] = d.path, d.variety
				return
			}
			continue
		}
		if !ok {
			continue
		}
		content = strings.Trim(strings.TrimSpace(content), `'"\`)
		parsed, search := distFileParses(d.variety, d.path, content, id)
		if parsed {
			f["distribution_file_path"], f["distribution_file_variety"] = d.path, d.variety
			f["distribution_file_parsed"] = true
			if search != "" {
				f["distribution_file_search_string"] = search
			}
			return
		}
	}
}

// distFileParses tells whether the variety's parser accepts the file.
func distFileParses(variety, path, data, id string) (bool, string) {
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(data, x) {
				return true
			}
		}
		return false
	}
	if s, ok := distSearchStrings[variety]; ok {
		if has(s) {
			return true, s
		}
		return true, ""
	}
	switch variety {
	case "Archlinux":
		return has("Arch Linux"), ""
	case "Slackware", "Amazon", "OpenWrt", "Mandriva":
		return has(variety), ""
	case "Alpine", "NA":
		return true, ""
	case "SUSE":
		return strings.Contains(strings.ToLower(data), "suse"), ""
	case "Debian":
		return has("Debian", "Raspbian", "Ubuntu", "SteamOS", "Devuan", "Cumulus", "Mint", "UOS", "Uos", "uos", "Deepin", "deepin") ||
			((path == "/etc/lsb-release" || path == "/etc/os-release") && has("Kali", "Parrot")), ""
	case "ClearLinux":
		if m := reClearName.FindStringSubmatch(data); m != nil && !strings.Contains(m[1], "Clear Linux") {
			return false, ""
		}
		return true, ""
	case "Coreos":
		return id == "coreos" && data != "", ""
	case "Flatcar":
		return id == "flatcar" && data != "", ""
	case "CentOS":
		return has("CentOS Stream", "TencentOS Server"), ""
	}
	return false, "" // Gentoo: Ansible has no parser for it
}
