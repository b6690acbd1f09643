// Package playbooks reads Ansible playbooks: plays, roles, blocks, tasks,
// handlers, includes and imports, decoded from yaml.Node so that every
// error carries file:line:col, and every error of a file is reported at
// once (ErrorList).
//
// Load reads a playbook and everything it refers to statically
// (import_playbook, roles with their defaults, vars, tasks, handlers and
// meta dependencies, import_tasks, import_role, and include_tasks /
// include_role whose target is literal). A file that is a bare list of
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
