package provision

import (
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/inventory"
)

// withSourceVars returns vars, a host's inventory variables, with
// inventory_file and inventory_dir, which Ansible sets on each host it
// reads: the absolute path of the source that first named the host and
// its directory; for a host list ("a,b,"), the list and "None" (Ansible
// finds no directory for it); for a host add_host made, null both. The
// host's own variables win over them. The implicit localhost has
// neither, but its ansible_python_interpreter is the controller's Python
// (ansible_playbook_python), as Ansible's is.
func withSourceVars(h *inventory.Host, vars map[string]any) map[string]any {
	if h.Implicit {
		py := controllerPython()
		if _, set := vars["ansible_python_interpreter"]; set || py == "" {
			return vars
		}
		out := maps.Clone(vars)
		if out == nil {
			out = map[string]any{}
		}
		out["ansible_python_interpreter"] = py
		return out
	}
	var file, dir any
	switch src := h.Source; {
	case src == "":
	case strings.Contains(src, ",") && !exists(src):
		file, dir = src, "None"
	default:
		abs, err := filepath.Abs(src)
		if err != nil {
			abs = src
		}
		file, dir = abs, filepath.Dir(abs)
	}
	out := make(map[string]any, len(vars)+2)
	out["inventory_file"], out["inventory_dir"] = file, dir
	for k, v := range vars {
		if _, own := h.Vars[k]; own || (k != "inventory_file" && k != "inventory_dir") {
			out[k] = v
		}
	}
	return out
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
