package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/collection"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// libraryModule runs a module that ships with the content (a library/
// directory or the module path; tasks.Env.ModuleFile) on the host, by
// Ansible's module protocol: the module file and its arguments file are
// written to a private temporary directory on the host and the module is
// run with the arguments file's path as its argument; it prints its
// result as JSON on stdout.
//
// How the arguments are written depends on the module, as in Ansible: a
// Python module built on AnsibleModule reads {"ANSIBLE_MODULE_ARGS": …},
// with the ansible.module_utils of the controller's ansible-core on its
// path (packed at run time into a zip kept in ~/.ansible/tmp on the host,
// sent once); a module that says WANT_JSON, and a binary module, read the
// arguments as JSON; any other reads k='v' pairs. A Python module runs with
// ansible_python_interpreter, else the Python ansible-core's discovery
// picks (discover.go); another script with ansible_<name>_interpreter
// when set, else its shebang. A collection's Python module runs with
// python -m from a zip of its collection's packages (collection.Pack).
type libraryModule struct{}

var _ tasks.Module = libraryModule{}

// moduleKind is how a content module takes its arguments.
type moduleKind int

const (
	kindOldStyle  moduleKind = iota // k='v' pairs
	kindWantJSON                    // WANT_JSON: the arguments as JSON
	kindAnsiballZ                   // Python on AnsibleModule: {"ANSIBLE_MODULE_ARGS": …}
	kindBinary                      // an executable: the arguments as JSON
)

// contentModule is a module file read and classified once.
type contentModule struct {
	body   []byte
	kind   moduleKind
	interp string // the shebang's interpreter name (python, bash, …), "" for none
	shell  string // the shebang as written, for scripts that keep it
}

var (
	contentMu      sync.Mutex
	contentModules = map[string]*contentModule{}
)

// maxModuleSize bounds a content module read from the controller.
const maxModuleSize = 16 << 20

// readContentModule reads (through the sandbox) and classifies the module
// at path (cached).
func readContentModule(sandbox *sandbox.Policy, path string) (*contentModule, error) {
	contentMu.Lock()
	defer contentMu.Unlock()
	if m, ok := contentModules[path]; ok {
		return m, nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxModuleSize {
		return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", path, maxModuleSize)
	}
	body, err := sandbox.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := classify(path, body)
	contentModules[path] = m
	return m, nil
}

var reShebang = regexp.MustCompile(`^#!\s*(\S+)(?:\s+(\S+))?`)

// classify tells how a module takes its arguments, as Ansible's module
// finder does: binaries by their bytes, AnsibleModule by its import,
// WANT_JSON by the marker, the rest old-style.
func classify(path string, body []byte) *contentModule {
	m := &contentModule{body: body}
	if bytes.HasPrefix(body, []byte("\x7fELF")) || bytes.IndexByte(body[:min(len(body), 4096)], 0) >= 0 {
		m.kind = kindBinary
		return m
	}
	first, _, _ := bytes.Cut(body, []byte("\n"))
	if s := reShebang.FindSubmatch(first); s != nil {
		m.shell = string(first)
		m.interp = filepath.Base(string(s[1]))
		if m.interp == "env" && len(s[2]) > 0 {
			m.interp = filepath.Base(string(s[2]))
		}
	} else if strings.HasSuffix(path, ".py") {
		m.interp = "python"
	}
	if strings.HasPrefix(m.interp, "python") {
		m.interp = "python"
	}
	switch {
	case bytes.Contains(body, []byte("from ansible.module_utils")) || bytes.Contains(body, []byte("import ansible.module_utils")):
		m.kind = kindAnsiballZ
	case bytes.Contains(body, []byte("WANT_JSON")):
		m.kind = kindWantJSON
	}
	return m
}

// Run runs the module on the host and reads its JSON result.
func (libraryModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	if env.ModuleFile == "" {
		return tasks.Result{}, fmt.Errorf("library: no module file")
	}
	if err := env.Sandbox.CheckRead(env.ModuleFile); err != nil {
		return tasks.Result{}, err
	}
	m, err := readContentModule(env.Sandbox, env.ModuleFile)
	if err != nil {
		return tasks.Result{Failed: true, Msg: fmt.Sprintf("module %s: %v", env.Action, err), Data: map[string]any{}}, nil
	}
	name := strings.TrimPrefix(env.Action, "ansible.legacy.")
	argText, err := moduleArgs(m.kind, name, env, args)
	if err != nil {
		return tasks.Result{}, err
	}
	zips := map[string][]byte{}
	var order []string
	if m.kind == kindAnsiballZ {
		utils, err := controllerModuleUtils()
		if err != nil {
			return tasks.Result{Failed: true, Msg: fmt.Sprintf("module %s is Python built on Ansible's AnsibleModule (%s): running it needs ansible-core installed on the controller, for its module_utils (Debian: apt install ansible-core; else pip install ansible-core): %v",
				name, env.ModuleFile, err), Data: map[string]any{}}, nil
		}
		zips[utils.name] = utils.zip
		order = append(order, utils.name)
	}
	modname := ""
	if collection.Of(env.ModuleFile) != "" && m.interp == "python" && m.kind != kindBinary {
		p, err := packCollectionModule(env)
		if err != nil {
			return tasks.Result{Failed: true, Msg: fmt.Sprintf("module %s (%s): %v", name, env.ModuleFile, err), Data: map[string]any{}}, nil
		}
		zips[p.Name] = p.Zip
		order = append(order, p.Name)
		modname = p.Import
	}
	body := m.body
	if modname != "" {
		body = nil // it is in the collection's zip
	}
	interp := interpreterFor(m, env)
	var found *discovery
	if interp == "" && m.interp == "python" && m.kind != kindBinary {
		if interp, found, err = pythonFor(ctx, env); err != nil {
			return tasks.Result{}, err
		}
	}
	script := moduleScript(m, filepath.Base(env.ModuleFile), interp, argText, order, modname)
	out, err := shared.Run(ctx, env, script, bytes.NewReader(body))
	if err != nil {
		return tasks.Result{}, err
	}
	if len(zips) > 0 && out.ExitCode == needUtilsCode && strings.HasPrefix(string(out.Stdout), needUtilsMark) {
		words := strings.Fields(strings.TrimPrefix(string(out.Stdout), needUtilsMark))
		if len(words) < 2 {
			return tasks.Result{}, fmt.Errorf("library: the host asked for module_utils without naming them: %q", out.Stdout)
		}
		for _, z := range words[1:] {
			b, ok := zips[z]
			if !ok {
				return tasks.Result{}, fmt.Errorf("library: the host asked for %q, which this module does not use", z)
			}
			if err := putZip(ctx, env, words[0], z, b); err != nil {
				return tasks.Result{}, err
			}
		}
		if out, err = shared.Run(ctx, env, script, bytes.NewReader(body)); err != nil {
			return tasks.Result{}, err
		}
	}
	res := moduleResult(string(out.Stdout), string(out.Stderr), out.ExitCode, interp)
	res.ShowDiff(env.Diff)
	if found != nil {
		// As Ansible: the discovered interpreter becomes a fact, its
		// warnings the result's.
		facts, _ := res.Data["ansible_facts"].(map[string]any)
		if facts == nil {
			facts = map[string]any{}
		}
		facts["discovered_interpreter_python"] = found.interp
		res.Data["ansible_facts"] = facts
		if len(found.warnings) > 0 {
			w, _ := res.Data["warnings"].([]any)
			for _, x := range found.warnings {
				w = append(w, x)
			}
			res.Data["warnings"] = w
			res.Warnings = append(res.Warnings, found.warnings...)
		}
	}
	if env.Async && len(out.Stderr) > 0 {
		// Ansible's async wrapper keeps what the module wrote to stderr.
		res.Data["stderr"] = string(out.Stderr)
		res.Stderr = string(out.Stderr)
	}
	return res, nil
}

// interpreterFor is the command that runs the module: "" runs the file
// itself (binaries, scripts without a known interpreter variable); a
// Python module's is ansible_python_interpreter, else found on the host.
func interpreterFor(m *contentModule, env *tasks.Env) string {
	if m.kind == kindBinary {
		return ""
	}
	if m.interp == "" {
		return ""
	}
	if env.Eval != nil {
		if v, err := env.Eval("ansible_" + m.interp + "_interpreter"); err == nil && v != nil {
			if s := fmt.Sprint(v); s != "" && !strings.HasPrefix(s, "auto") {
				return s
			}
		}
	}
	if m.interp == "python" {
		return "" // found by the script (discoverPython)
	}
	return strings.TrimSpace(strings.TrimPrefix(m.shell, "#!"))
}

// pythonFor is the Python a module runs with when
// ansible_python_interpreter does not name one: the fact a discovery on
// this host left (discovered_interpreter_python), else a discovery now
// (returned, for its fact and warnings), in the variable's auto* mode.
func pythonFor(ctx context.Context, env *tasks.Env) (string, *discovery, error) {
	mode := "auto"
	if env.Eval != nil {
		if v, err := env.Eval("ansible_python_interpreter"); err == nil && v != nil {
			if s := fmt.Sprint(v); strings.HasPrefix(s, "auto") {
				mode = s
			}
		}
		if v, err := env.Eval("discovered_interpreter_python"); err == nil && v != nil {
			if s := fmt.Sprint(v); s != "" {
				return s, nil, nil
			}
		}
	}
	d, err := discoverPython(ctx, env, mode)
	if err != nil {
		return "", nil, err
	}
	return d.interp, &d, nil
}

// moduleArgs writes the module's arguments as its kind reads them, with
// the internal _ansible_* arguments Ansible adds.
func moduleArgs(kind moduleKind, name string, env *tasks.Env, args tasks.Args) (string, error) {
	all := map[string]any{}
	for k, v := range args {
		all[k] = v
	}
	all["_ansible_check_mode"] = env.Check
	all["_ansible_diff"] = env.Diff
	all["_ansible_verbosity"] = env.Verbosity
	all["_ansible_no_log"] = false
	all["_ansible_debug"] = false
	all["_ansible_module_name"] = name
	all["_ansible_version"] = config.AnsibleVersion
	all["_ansible_syslog_facility"] = "LOG_USER"
	all["_ansible_string_conversion_action"] = "warn"
	all["_ansible_shell_executable"] = "/bin/sh"
	all["_ansible_keep_remote_files"] = false
	all["_ansible_remote_tmp"] = "~/.ansible/tmp"
	all["_ansible_selinux_special_fs"] = []string{"fuse", "nfs", "vboxsf", "ramfs", "9p", "vfat"}
	switch kind {
	case kindAnsiballZ:
		b, err := json.Marshal(map[string]any{"ANSIBLE_MODULE_ARGS": all})
		return string(b), err
	case kindWantJSON, kindBinary:
		b, err := json.Marshal(all)
		return string(b), err
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := all[k]
		s, ok := v.(string)
		if !ok {
			j, err := json.Marshal(v)
			if err != nil {
				return "", err
			}
			s = string(j)
			if bv, isBool := v.(bool); isBool {
				s = map[bool]string{true: "True", false: "False"}[bv]
			}
		}
		fmt.Fprintf(&b, "%s=%s ", k, shared.Q(s))
	}
	return strings.TrimSpace(b.String()), nil
}

func (libraryModule) Spec() *tasks.Spec { return librarySpec }

// librarySpec documents the runner of modules that ship with the content:
// a task names the module itself, with the module's own parameters.
var librarySpec = &tasks.Spec{Module: "library",
	Other: "not a module to name in a task: a task naming a module found in library/ beside the playbook or in a role, on the module path, or in an installed collection (docs/COMPATIBILITY.md, Collections), runs it on the host with that module's own parameters, by Ansible's module protocol; an embedder's Restrict allows those only when it names library"}
