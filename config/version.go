package config

// AnsibleVersion is the ansible-core release whose settings, behaviour
// and messages tender follows: the version its tables were generated
// from (ansible.constants' __version__). ansible_version,
// _ansible_version and `--version` report it.
var AnsibleVersion = constants["__version__"].(string)
