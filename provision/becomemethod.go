package provision

import (
	"fmt"
	"strings"

	"github.com/tender-sh/tender/internal/fqcn"
)

// Ansible's become plugins: ansible-core's (also written ansible.builtin.X)
// and community.general's (community.general.X, or X, which ansible-core
// routes there). tender runs sudo, su and doas; a task that needs another
// fails with transport's message.
var (
	coreBecome      = map[string]bool{"sudo": true, "su": true, "runas": true}
	communityBecome = map[string]bool{"doas": true, "dzdo": true, "ksu": true, "machinectl": true, "pbrun": true,
		"pfexec": true, "pmrun": true, "sesu": true, "sudosu": true}
)

// becomeMethod is method by its short name (ansible.builtin.sudo and
// community.general.doas are sudo and doas), or Ansible's error for a
// method no plugin has, which a task that asks for it fails with even
// when it would not need to become anyone.
func becomeMethod(method string) (string, error) {
	if method == "" {
		return "", nil
	}
	if short := fqcn.Short(method); coreBecome[short] {
		return short, nil
	}
	if short, _ := strings.CutPrefix(method, "community.general."); communityBecome[short] {
		return short, nil
	}
	return "", fmt.Errorf("Invalid become method specified, could not find matching plugin: '%s'. Use `ansible-doc -t become -l` to list available plugins.", method)
}
