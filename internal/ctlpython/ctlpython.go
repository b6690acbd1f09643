// Package ctlpython asks the controller's Python, once per process, what
// only it knows: where its ansible-core lives (for ansible.module_utils
// and ansible.builtin's plugin routing) and its sys.path (where Ansible
// finds collections installed as Python packages, as Debian's ansible
// package installs them). Nothing of tender needs it: it serves content
// written for Ansible's Python (collection and library/ modules).
package ctlpython

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Info is what the controller's Python said.
type Info struct {
	// Python is the interpreter that answered.
	Python string
	// SysPath is its sys.path, empty entries dropped.
	SysPath []string
	// AnsibleDir is the directory of its ansible package (ansible-core),
	// "" when it has none.
	AnsibleDir string
}

var (
	once    sync.Once
	info    *Info
	infoErr error
)

// Load asks the first Python that answers, in Ansible's order for the
// controller: the interpreter of ansible-playbook's (else ansible's)
// shebang, then python3 and /usr/bin/python3. The answer is kept for the
// life of the process. It fails when no Python answers.
func Load() (*Info, error) {
	once.Do(func() { info, infoErr = load() })
	return info, infoErr
}

// probe prints what Load needs as JSON, whether or not ansible imports.
const probe = `import json, os, sys
try:
    import ansible
    d = os.path.dirname(ansible.__file__)
except Exception:
    d = ""
print(json.dumps({"sys_path": [p for p in sys.path if p], "ansible": d}))`

func load() (*Info, error) {
	var pythons []string
	for _, tool := range []string{"ansible-playbook", "ansible"} {
		if p, err := exec.LookPath(tool); err == nil {
			if py := ShebangPython(p); py != "" {
				pythons = append(pythons, py)
			}
		}
	}
	pythons = append(pythons, "python3", "/usr/bin/python3")
	var first *Info
	for _, py := range pythons {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, py, "-c", probe)
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
		out, err := cmd.Output()
		cancel()
		if err != nil {
			continue
		}
		var got struct {
			SysPath []string `json:"sys_path"`
			Ansible string   `json:"ansible"`
		}
		if json.Unmarshal(out, &got) != nil {
			continue
		}
		i := &Info{Python: py, SysPath: got.SysPath, AnsibleDir: got.Ansible}
		if i.AnsibleDir != "" {
			return i, nil
		}
		if first == nil {
			first = i
		}
	}
	if first != nil {
		return first, nil
	}
	return nil, errors.New("no Python found on the controller (tried ansible-playbook's interpreter, python3 and /usr/bin/python3)")
}

var reShebang = regexp.MustCompile(`^#!\s*(\S+)(?:\s+(\S+))?`)

// ShebangPython returns the interpreter of a Python script's shebang, ""
// when path is not one (tender itself, linked as ansible-playbook).
func ShebangPython(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	first, _, _ := strings.Cut(string(buf[:n]), "\n")
	s := reShebang.FindStringSubmatch(first)
	if s == nil {
		return ""
	}
	py := s[1]
	if filepath.Base(py) == "env" {
		py = s[2]
	}
	if !strings.HasPrefix(filepath.Base(py), "python") {
		return ""
	}
	return py
}
