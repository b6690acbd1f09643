package fqcn

import "testing"

func TestShort(t *testing.T) {
	for in, want := range map[string]string{
		"ansible.builtin.copy": "copy", "ansible.legacy.shell": "shell", "copy": "copy",
		"ansible.posix.sysctl": "ansible.posix.sysctl", "ansible.builtin.": "", "ansible.builtinx.copy": "ansible.builtinx.copy",
	} {
		if got := Short(in); got != want {
			t.Errorf("Short(%q) = %q, want %q", in, got, want)
		}
	}
}
