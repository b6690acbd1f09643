package files

import "github.com/tender-sh/tender/tasks"

// Register adds to r the file modules: copy, file, stat, the line and
// block editors, ini_file, template, tempfile, find, assemble, fetch,
// slurp, unarchive and selinux.
func Register(r *tasks.Registry) {
	r.Register("copy", func() tasks.Module { return copyModule{} })
	r.Register("file", func() tasks.Module { return fileModule{} })
	r.Register("stat", func() tasks.Module { return statModule{} })
	r.Add(tasks.Def{Name: "selinux", Aliases: []string{"ansible.posix.selinux"}, New: func() tasks.Module { return selinuxModule{} }})
	r.Register("lineinfile", func() tasks.Module { return lineinfileModule{} })
	r.Register("slurp", func() tasks.Module { return slurpModule{} })
	r.Register("replace", func() tasks.Module { return replaceModule{} })
	r.Register("blockinfile", func() tasks.Module { return blockinfileModule{} })
	r.Add(tasks.Def{Name: "ini_file", Aliases: []string{"community.general.ini_file"}, New: func() tasks.Module { return iniFileModule{} }})
	r.Register("template", func() tasks.Module { return templateModule{} })
	r.Register("tempfile", func() tasks.Module { return tempfileModule{} })
	r.Register("find", func() tasks.Module { return findModule{} })
	r.Register("assemble", func() tasks.Module { return assembleModule{} })
	r.Register("fetch", func() tasks.Module { return fetchModule{} })
	r.Register("unarchive", func() tasks.Module { return unarchiveModule{} })
}
