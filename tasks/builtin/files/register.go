package files

import "github.com/tender-sh/tender/tasks"

// Register adds to r the file modules: copy, file, stat, the line and
// block editors, ini_file, template, tempfile, find, assemble, fetch,
// slurp, unarchive, selinux, acl, patch, synchronize and archive.
// copy, template, assemble, fetch, unarchive, patch and synchronize, like
// Ansible's actions for them, do not run with async:.
func Register(r *tasks.Registry) {
	r.Add(tasks.Def{Aliases: []string{"community.general.archive"}, New: func() tasks.Module { return archiveModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return copyModule{} }})
	r.Module(func() tasks.Module { return fileModule{} })
	r.Module(func() tasks.Module { return statModule{} })
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.selinux"}, New: func() tasks.Module { return selinuxModule{} }})
	r.Module(func() tasks.Module { return lineinfileModule{} })
	r.Module(func() tasks.Module { return slurpModule{} })
	r.Module(func() tasks.Module { return replaceModule{} })
	r.Module(func() tasks.Module { return blockinfileModule{} })
	r.Add(tasks.Def{Aliases: []string{"community.general.ini_file"}, New: func() tasks.Module { return iniFileModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return templateModule{} }})
	r.Module(func() tasks.Module { return tempfileModule{} })
	r.Module(func() tasks.Module { return findModule{} })
	r.Add(tasks.Def{Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return assembleModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return fetchModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return unarchiveModule{} }})
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.acl"}, New: func() tasks.Module { return aclModule{} }})
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.patch"}, Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return patchModule{} }})
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.synchronize"}, Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return synchronizeModule{} }})
}
