package packages

// The options of Ansible's package modules that tender does not implement
// yet, each with what it would take; tender doc and docs/MODULES.md list
// them, and Spec.Decode refuses them with the reason.

// todoPkg is the reason of an option not implemented yet.
const todoPkg = "not implemented yet"

// rpmRefused are dnf's and yum's (yum is dnf on the hosts tender manages).
var rpmRefused = map[string]string{
	"allow_downgrade":   todoPkg,
	"allowerasing":      todoPkg,
	"bugfix":            todoPkg,
	"cacheonly":         todoPkg,
	"conf_file":         todoPkg,
	"disable_excludes":  todoPkg,
	"disable_plugin":    todoPkg,
	"download_dir":      todoPkg,
	"download_only":     todoPkg,
	"enable_plugin":     todoPkg,
	"exclude":           todoPkg,
	"install_repoquery": "a no-op since ansible-core 2.11, kept by Ansible for compatibility only",
	"install_weak_deps": todoPkg,
	"installroot":       todoPkg,
	"list":              todoPkg,
	"lock_timeout":      todoPkg,
	"nobest":            todoPkg,
	"releasever":        todoPkg,
	"security":          todoPkg,
	"skip_broken":       todoPkg,
	"sslverify":         todoPkg,
	"update_only":       todoPkg,
	"validate_certs":    todoPkg,
}
