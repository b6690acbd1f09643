package packages

import "github.com/tender-sh/tender/tasks"

// Register adds to r the package modules: apt, dnf, yum, package,
// pip, apt_key, apt_repository, dpkg_selections, package_facts, rpm_key,
// yum_repository and debconf.
func Register(r *tasks.Registry) {
	r.Register("debconf", func() tasks.Module { return debconfModule{} })
	r.Register("apt", func() tasks.Module { return aptModule{} })
	r.Register("package", func() tasks.Module { return packageModule{} })
	r.Register("dnf", func() tasks.Module { return rpmModule{tool: "dnf"} })
	r.Register("yum", func() tasks.Module { return rpmModule{tool: "yum"} })
	r.Register("pip", func() tasks.Module { return pipModule{} })
	r.Register("apt_key", func() tasks.Module { return aptKeyModule{} })
	r.Register("apt_repository", func() tasks.Module { return aptRepositoryModule{} })
	r.Register("dpkg_selections", func() tasks.Module { return dpkgSelectionsModule{} })
	r.Register("package_facts", func() tasks.Module { return packageFactsModule{} })
	r.Register("rpm_key", func() tasks.Module { return rpmKeyModule{} })
	r.Register("yum_repository", func() tasks.Module { return yumRepositoryModule{} })
}
