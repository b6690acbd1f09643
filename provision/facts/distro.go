package facts

import (
	"regexp"
	"strings"

	"github.com/tender-sh/tender/internal/osfamily"
)

// distroNames maps os-release IDs to the names Ansible reports.
var distroNames = map[string]string{
	"debian": "Debian", "ubuntu": "Ubuntu", "raspbian": "Debian", "linuxmint": "Linux Mint",
	"centos": "CentOS", "rhel": "RedHat", "rocky": "Rocky", "almalinux": "AlmaLinux",
	"fedora": "Fedora", "ol": "OracleLinux", "amzn": "Amazon", "alpine": "Alpine",
	"arch": "Archlinux", "gentoo": "Gentoo", "devuan": "Devuan", "kali": "Kali",
}

var (
	reParens      = regexp.MustCompile(`\(([^)]+)\)`)
	reReleaseNum  = regexp.MustCompile(`release\s+([0-9][0-9.]*)`)
	reSuseVersion = regexp.MustCompile(`^([0-9]+)\.?([0-9]*)`)
	reDebMinor    = regexp.MustCompile(`([0-9]+)\.([0-9]+)`)
)

// distribution computes ansible_distribution, _version, _major_version,
// _release and ansible_os_family from the host's release files.
func distribution(r *raw) map[string]any {
	osr := r.osRelease()
	id := strings.ToLower(osr["ID"])
	name := distroNames[id]
	switch {
	case strings.HasPrefix(id, "opensuse") || id == "sles" || id == "sled" || id == "sles_sap":
		name = osr["NAME"]
	case name == "" && id != "":
		name = capitalize(id)
	case name == "":
		name = fallbackName(r)
	}

	version := osr["VERSION_ID"]
	relFile, _ := r.file("/etc/redhat-release")
	if c, ok := r.file("/etc/centos-release"); ok {
		relFile = c
	}
	switch {
	case id == "centos":
		if m := reReleaseNum.FindStringSubmatch(relFile); m != nil {
			parts := strings.Split(m[1], ".")
			version = strings.Join(parts[:min(2, len(parts))], ".")
		}
	case id == "alpine":
		if av, ok := r.file("/etc/alpine-release"); ok && strings.TrimSpace(av) != "" {
			version = strings.TrimSpace(av)
		}
	case family(name) == "Suse":
		if m := reSuseVersion.FindStringSubmatch(version); m != nil {
			version = m[0]
		}
	case id == "" && relFile != "":
		if m := reReleaseNum.FindStringSubmatch(relFile); m != nil {
			version = m[1]
		}
	}
	if version == "" {
		version = "NA"
	}
	major := strings.Split(version, ".")[0]
	if major == "" {
		major = "NA"
	}

	f := map[string]any{
		"distribution":               name,
		"distribution_version":       version,
		"distribution_major_version": major,
		"distribution_release":       release(id, name, osr, relFile),
		"os_family":                  family(name),
	}
	// Debian's point release is only in /etc/debian_version; Ansible
	// reports it as the minor version and keeps os-release's VERSION_ID
	// as the version.
	if name == "Debian" {
		if dv, ok := r.file("/etc/debian_version"); ok {
			if m := reDebMinor.FindStringSubmatch(dv); m != nil {
				f["distribution_minor_version"] = m[2]
			}
		}
	}
	return f
}

func release(id, name string, osr map[string]string, relFile string) string {
	if c, ok := osr["VERSION_CODENAME"]; ok {
		return c
	}
	if c, ok := osr["UBUNTU_CODENAME"]; ok {
		return c
	}
	if id == "centos" && strings.Contains(relFile, "CentOS Stream") {
		return "Stream"
	}
	if family(name) == "Suse" {
		m := reSuseVersion.FindStringSubmatch(osr["VERSION_ID"])
		switch {
		case m == nil:
		case strings.Contains(strings.ToLower(osr["NAME"]+osr["PRETTY_NAME"]+osr["ID"]), "open"):
			return m[2]
		case m[2] == "":
			return "0"
		default:
			return m[2]
		}
	}
	if m := reParens.FindStringSubmatch(osr["VERSION"]); m != nil {
		return strings.TrimSpace(m[1])
	}
	if m := reParens.FindStringSubmatch(relFile); m != nil {
		return strings.TrimSpace(m[1])
	}
	return "NA"
}

// fallbackName names a distribution that has no os-release.
func fallbackName(r *raw) string {
	if rh, ok := r.file("/etc/redhat-release"); ok {
		if strings.Contains(rh, "Red Hat") {
			return "RedHat"
		}
		if f := strings.Fields(rh); len(f) > 0 {
			return f[0]
		}
	}
	if _, ok := r.file("/etc/alpine-release"); ok {
		return "Alpine"
	}
	if _, ok := r.file("/etc/debian_version"); ok {
		return "Debian"
	}
	return "OtherLinux"
}

func family(name string) string {
	if f, ok := osfamily.Of(name); ok {
		return f
	}
	return name
}

// capitalize is Python's str.capitalize: first letter upper, rest lower.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
}
