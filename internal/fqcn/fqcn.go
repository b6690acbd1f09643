// Package fqcn reads Ansible's fully qualified collection names as far
// as tender needs: the prefixes every built-in action may be written with.
package fqcn

import "strings"

// Short strips the ansible.builtin. or ansible.legacy. prefix that every
// built-in action may be written with; other names come back unchanged.
func Short(name string) string {
	for _, p := range []string{"ansible.builtin.", "ansible.legacy."} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return rest
		}
	}
	return name
}
