package commands

import "github.com/tender-sh/tender/tasks"

// Register adds to r the modules that run commands and programs on
// a host: command, shell, raw, script, expect, git_config, make and
// the library runner.
// raw and script, like Ansible's actions for them, do not run with
// async:.
func Register(r *tasks.Registry) {
	detached := tasks.Traits{DetachedAsync: true, TextOutput: true}
	r.Add(tasks.Def{FreeForm: true, CmdParam: true, Traits: detached, New: func() tasks.Module { return &commandModule{} }})
	r.Add(tasks.Def{FreeForm: true, CmdParam: true, Traits: detached, New: func() tasks.Module { return &commandModule{shell: true} }})
	r.Add(tasks.Def{FreeForm: true, Traits: tasks.Traits{NoAsync: true, TextOutput: true}, New: func() tasks.Module { return rawModule{} }})
	r.Add(tasks.Def{FreeForm: true, CmdParam: true, Traits: tasks.Traits{NoAsync: true}, New: func() tasks.Module { return scriptModule{} }})
	r.Module(func() tasks.Module { return expectModule{} })
	r.Add(tasks.Def{Aliases: []string{"community.general.git_config"}, New: func() tasks.Module { return gitConfigModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.make"}, New: func() tasks.Module { return makeModule{} }})
	// modules that ship with the content (library/), by Ansible's module
	// protocol; an embedder's Restrict leaves them out unless it names
	// "library" (playbooks.LibraryModule)
	r.Module(func() tasks.Module { return libraryModule{} })
}
