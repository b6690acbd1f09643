// Package playbooks reads Ansible playbooks: plays, roles, blocks, tasks,
// handlers, includes and imports, decoded from yaml.Node so that every
// error carries file:line:col, and every error of a file is reported at
// once (ErrorList).
//
// Load reads a playbook and everything it refers to statically
// (import_playbook, roles with their defaults, vars, tasks, handlers and
// meta dependencies, import_tasks, import_role). include_tasks and
// include_role are Dynamic, as in Ansible: the engine renders the name on
// each host and loads the target with Task.Resolve when the include runs.
// A literal include's target is also read at load time as a preview for
// listings and checks; what fails there is one of Playbook.Warnings, not
// an error, since Ansible finds it only on the hosts that reach the
// include. A file that is a bare list of tasks, as agent playbooks often
// are, becomes one play for Options.Hosts (or use LoadTasks).
//
// Module arguments are normalized as Ansible's ModuleArgsParser does: k=v
// strings (SplitKV, ParseKV), dicts, args:, free-form commands of shell,
// command, raw and script under "_raw_params" with chdir=, creates=, …
// split out, and action:/local_action:. Module names are canonical
// (ansible.builtin.copy is copy; see CanonicalModule); an unknown module or
// keyword is an error naming the nearest known one.
//
// Values stay raw: YAML 1.1 scalars (yes/no are booleans, 0755 is octal)
// as internal/yaml11 reads them, templates unevaluated but parsed with
// playbooks/expr so that syntax errors surface at load time (as warnings).
package playbooks

// Differences from Ansible, on purpose:
//
//   - when/changed_when/failed_when/until, assert's that, and every string
//     holding {{ }} or {% %} are parsed at load time; a syntax error is a
//     warning with file:line:col (Playbook.Warnings), and fails the task
//     when it runs, as in Ansible.
//   - A templated role name in roles: is an error: it must be known when
//     the playbook is read. A templated import_playbook path is rendered
//     then, with the import's vars and Options.Vars, as Ansible does.
//   - Roles are looked for beside the playbook, in Options.RolesPath and
//     beside a dependent role; Ansible's default roles path
//     (~/.ansible/roles, /etc/ansible/roles) and collection roles are not
//     searched.
//   - A literal boolean condition is kept as the string "True"/"False";
//     notify, listen and tags are always lists.
//   - A k=v string with leading spaces is accepted (Ansible fails with an
//     IndexError); \N{name} escapes are left as written.
//   - vars_files are not read here: the engine reads them per host, as
//     their names may hold host variables.
//   - collections: names the collections a bare module name is looked up
//     in. tender runs ansible.builtin's modules, modules that ship with the
//     content (library/), and the few collection modules CanonicalModule
//     maps; a bare name is one of those whatever collections: lists, so a
//     collection installed on the controller that ships a module of the
//     same name as a builtin one does not shadow it.
