// Package playbooks reads Ansible playbooks: plays, roles, blocks, tasks,
// handlers, includes and imports, decoded from yaml.Node so that every
// error carries file:line:col, and every error of a file is reported at
// once (ErrorList).
//
// Load reads a playbook and everything it refers to statically
// (import_playbook, roles with their defaults, vars, tasks, handlers and
// meta dependencies, import_tasks, import_role, and include_tasks /
// include_role whose target is literal). An include whose file or role
// name is a template is Dynamic: the engine renders the name on each host
// and loads it with Task.Resolve. A file that is a bare list of
// tasks, as agent playbooks often are, becomes one play for Options.Hosts
// (or use LoadTasks).
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
// playbooks/expr so that syntax errors surface at load time.
package playbooks

// Differences from Ansible, on purpose:
//
//   - include_tasks and include_role whose file or role name is literal are
//     read at load time, so a missing file or a broken task in it is
//     reported before any host is touched (Ansible finds out at run time).
//     Their conditions and tags still apply to the include only.
//   - when/changed_when/failed_when/until, assert's that, and every string
//     holding {{ }} or {% %} are parsed at load time; syntax errors are
//     load errors with file:line:col.
//   - A templated role name in roles: or a templated import_playbook path
//     is an error: they must be known when the playbook is read.
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
