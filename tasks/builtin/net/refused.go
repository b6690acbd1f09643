package net

// The options of Ansible's uri module that tender does not implement yet;
// tender doc and docs/MODULES.md list them, and Spec.Decode refuses them
// with the reason.
var uriRefused = map[string]string{
	"src":         "not implemented yet",
	"remote_src":  "not implemented yet",
	"ca_path":     "not implemented yet",
	"unix_socket": "not implemented yet",
}
