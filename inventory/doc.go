// Package inventory reads Ansible inventories exactly as ansible-core 2.14
// reads them: INI and YAML (and JSON) files, directories of them, host
// lists ("a,b,"), host ranges (web[01:20], db-[a:f], s[1:10:2]), group
// children, host_vars/ and group_vars/ beside each source (and beside the
// playbook), the variable merge order of Ansible's VariableManager, and host
// patterns for --limit and a play's hosts:. It also renders what
// ansible-inventory prints for --list, --host and --graph [--vars].
//
// Load reads sources; Hosts, Match and Limit select hosts; HostVars merges
// a host's variables; List, Graph and JSON produce ansible-inventory's
// output byte for byte. AddHost, AddGroup and AddChild change the
// inventory at run time (add_host, group_by, a control plane adding hosts).
//
// The package is pure: it reads files only in Load, LoadFile,
// SetPlaybookDir, AddHost (that host's host_vars) and Limit (@file). An
// Inventory is not safe for concurrent mutation; concurrent reads (Hosts,
// HostVars, List, Graph) are safe while no goroutine changes it.
//
// # Deliberate differences from Ansible
//
//   - A source that is missing or cannot be parsed is an error; ansible
//     warns and goes on with the rest. Executable inventory scripts, TOML
//     and inventory plugin configurations are not supported.
//   - INI values: ast.literal_eval results with no JSON form in Python
//     (complex numbers, sets, Ellipsis), integers beyond int64, dicts with
//     tuple keys and \N{NAME} escapes are kept as the original text;
//     tuples become lists (JSON shows no difference; --graph --vars prints
//     [1, 2] where Python prints (1, 2)).
//   - Host order below the second level of groups: Ansible walks groups
//     through a Python set of id-hashed objects, so e.g. the order of
//     `all` can change from one run to the next; tender uses declaration
//     order (which is what Ansible usually prints).
//   - ~regex patterns are Python's (internal/pyre), each search bounded to
//     1 s; past it the pattern fails with an error.
//   - A host range expands to at most 65536 hosts per entry.
//   - The implicit localhost gets ansible_connection=local only (no
//     ansible_python_interpreter: tender needs no Python).
package inventory
