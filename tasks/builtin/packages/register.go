package packages

import "github.com/tender-sh/tender/tasks"

// Register adds to r the package modules: apt, dnf, yum, package,
// pip, apt_key, apt_repository, dpkg_selections, package_facts, rpm_key,
// yum_repository, debconf and community.general.npm.
func Register(r *tasks.Registry) {
	r.Module(func() tasks.Module { return debconfModule{} })
	r.Module(func() tasks.Module { return aptModule{} })
	r.Module(func() tasks.Module { return packageModule{} })
	r.Module(func() tasks.Module { return rpmModule{tool: "dnf"} })
	r.Module(func() tasks.Module { return rpmModule{tool: "yum"} })
	r.Module(func() tasks.Module { return pipModule{} })
	r.Module(func() tasks.Module { return aptKeyModule{} })
	r.Module(func() tasks.Module { return aptRepositoryModule{} })
	r.Module(func() tasks.Module { return dpkgSelectionsModule{} })
	r.Module(func() tasks.Module { return packageFactsModule{} })
	r.Module(func() tasks.Module { return rpmKeyModule{} })
	r.Module(func() tasks.Module { return yumRepositoryModule{} })
	r.Add(tasks.Def{Aliases: []string{"community.general.npm"}, New: func() tasks.Module { return npmModule{} }})
}
