package files

import "github.com/tender-sh/tender/tasks"

// Register adds to r the file modules: copy, file, stat, the line and
// block editors, ini_file, template, tempfile, find, assemble, fetch,
// slurp, unarchive and selinux.
// copy, template, assemble, fetch and unarchive, like Ansible's actions
// for them, do not run with async:.
func Register(r *tasks.Registry) {
	r.Add(tasks.Def{Name: "copy", Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return copyModule{} }})
	r.Register("file", func() tasks.Module { return fileModule{} })
	r.Register("stat", func() tasks.Module { return statModule{} })
	r.Add(tasks.Def{Name: "selinux", Aliases: []string{"ansible.posix.selinux"}, New: func() tasks.Module { return selinuxModule{} }})
	r.Register("lineinfile", func() tasks.Module { return lineinfileModule{} })
	r.Register("slurp", func() tasks.Module { return slurpModule{} })
	r.Register("replace", func() tasks.Module { return replaceModule{} })
	r.Register("blockinfile", func() tasks.Module { return blockinfileModule{} })
	r.Add(tasks.Def{Name: "ini_file", Aliases: []string{"community.general.ini_file"}, New: func() tasks.Module { return iniFileModule{} }})
	r.Add(tasks.Def{Name: "template", Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return templateModule{} }})
	r.Register("tempfile", func() tasks.Module { return tempfileModule{} })
	r.Register("find", func() tasks.Module { return findModule{} })
	r.Add(tasks.Def{Name: "assemble", Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return assembleModule{} }})
	r.Add(tasks.Def{Name: "fetch", Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return fetchModule{} }})
	r.Add(tasks.Def{Name: "unarchive", Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return unarchiveModule{} }})
}
