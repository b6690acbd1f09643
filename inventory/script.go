package inventory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/osproc"
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// maxScriptOutput bounds what an inventory script may print (its --list
// or one --host answer); more fails the source.
const maxScriptOutput = 256 << 20

// isScript reports whether Ansible's script plugin takes path: a file
// that is executable or starts with "#!".
func isScript(path string) bool {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return false
	}
	if st.Mode()&0o111 != 0 && syscallAccess(path) {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := io.ReadFull(f, head)
	return n == 2 && string(head) == "#!"
}

// syscallAccess is whether this process may run path.
func syscallAccess(path string) bool { return osproc.Executable(path) }

// scriptError is a failure of the script plugin, worded as Ansible's.
type scriptError struct{ msg string }

func (e *scriptError) Error() string { return e.msg }

// loadScript runs path with --list, as Ansible's script plugin does, and
// adds the groups, hosts and variables its JSON gives: a group's hosts,
// vars and children ({"hosts": [...], "vars": {...}, "children": [...]},
// a bare list of hosts, or a mapping of variables for a host named as the
// group), then each host's variables from _meta.hostvars or, without
// it, from running path --host NAME for each host. The script's stderr,
// when it succeeds, is returned for the caller to show.
func (inv *Inventory) loadScript(ctx context.Context, path string) (stderr string, err error) {
	out, errText, err := runScript(ctx, path, "--list")
	if err != nil {
		return "", err
	}
	if !utf8.Valid(out) {
		return "", &scriptError{fmt.Sprintf("Inventory %s contained characters that cannot be interpreted as UTF-8: 'utf-8' codec can't decode the output", path)}
	}
	data, err := decodeScriptJSON(out)
	if err != nil {
		return "", &scriptError{fmt.Sprintf("failed to parse executable inventory script results from %s: %v\n%s", path, err, errText)}
	}
	top, ok := data.(map[string]any)
	if !ok {
		return "", &scriptError{fmt.Sprintf("failed to parse executable inventory script results from %s: needs to be a json dict\n%s", path, errText)}
	}
	defer inv.changed()
	inv.source = path
	defer func() { inv.source = "" }()
	var meta any
	haveMeta := false
	var hosts []string
	seen := map[string]bool{}
	for _, name := range pydict.Keys(top) {
		gdata := top[name]
		if name == "_meta" {
			if m, ok := gdata.(map[string]any); ok {
				meta = m["hostvars"]
				haveMeta = meta != nil // a null hostvars asks each host
			}
			continue
		}
		added, err := inv.scriptGroup(name, gdata)
		if err != nil {
			return "", err
		}
		for _, h := range added {
			if !seen[h] {
				seen[h] = true
				hosts = append(hosts, h)
			}
		}
	}
	for _, name := range hosts {
		var got any
		if haveMeta {
			m, ok := meta.(map[string]any)
			if !ok {
				return "", &scriptError{fmt.Sprintf("Improperly formatted host information for %s: '%s' object has no attribute 'get'", name, pyfmt.TypeName(meta))}
			}
			got = m[name]
		} else if got, err = scriptHostVars(ctx, path, name); err != nil {
			return "", err
		}
		if haveMeta && !hasKey(meta.(map[string]any), name) {
			got = map[string]any{}
		}
		vars, ok := got.(map[string]any)
		if !ok {
			return "", &scriptError{"Invalid data from file, expected dictionary and got:\n\n" + pyfmt.Str(got)}
		}
		h := inv.hosts[name]
		for _, k := range pydict.Keys(vars) {
			inv.setHostVar(h, k, vars[k])
		}
	}
	inv.reconcile()
	return errText, nil
}

func hasKey(m map[string]any, k string) bool { _, ok := m[k]; return ok }

// scriptGroup adds one group of a script's output and returns the hosts
// it names.
func (inv *Inventory) scriptGroup(name string, data any) ([]string, error) {
	if name == "" {
		return nil, &scriptError{"Invalid empty group name"}
	}
	g := inv.addGroup(name)
	m, isMap := data.(map[string]any)
	switch {
	case !isMap:
		m = map[string]any{"hosts": data}
	case !hasKey(m, "hosts") && !hasKey(m, "vars") && !hasKey(m, "children"):
		// a mapping of variables: a host named as the group
		m = map[string]any{"hosts": []any{name}, "vars": data}
	}
	var added []string
	if list, ok := m["hosts"]; ok {
		l, ok := list.([]any)
		if !ok {
			return nil, &scriptError{fmt.Sprintf("You defined a group '%s' with bad data for the host list:\n %s", name, pyfmt.Repr(m))}
		}
		for _, e := range l {
			hn, ok := e.(string)
			if !ok {
				return nil, &scriptError{fmt.Sprintf("Invalid host name supplied, expected a string but got <class '%s'> for %s", pyfmt.TypeName(e), pyfmt.Str(e))}
			}
			if hn == "" {
				continue // Ansible adds no host for an empty name
			}
			h := inv.addHost(hn, 0)
			g.addHost(h)
			added = append(added, hn)
		}
	}
	if vars, ok := m["vars"]; ok {
		vm, ok := vars.(map[string]any)
		if !ok {
			return nil, &scriptError{fmt.Sprintf("You defined a group '%s' with bad data for variables:\n %s", name, pyfmt.Repr(m))}
		}
		for _, k := range pydict.Keys(vm) {
			if err := inv.setGroupVar(g, k, vm[k]); err != nil {
				return nil, &scriptError{err.Error()}
			}
		}
	}
	if children, ok := m["children"]; ok && isMap {
		// Python iterates a list's items, a dict's keys, a string's
		// characters
		list, _ := children.([]any)
		switch t := children.(type) {
		case map[string]any:
			for _, k := range pydict.Keys(t) {
				list = append(list, k)
			}
		case string:
			for _, r := range t {
				list = append(list, string(r))
			}
		}
		for _, c := range list {
			cn, ok := c.(string)
			if !ok || cn == "" {
				return nil, &scriptError{fmt.Sprintf("Invalid group name supplied, expected a string but got <class '%s'> for %s", pyfmt.TypeName(c), pyfmt.Str(c))}
			}
			inv.addGroup(cn)
			if err := inv.addChild(name, cn); err != nil {
				return nil, &scriptError{err.Error()}
			}
		}
	}
	return added, nil
}

// scriptHostVars runs path --host NAME and reads its output as Ansible's
// loader does (JSON, else YAML). Empty output reads as None, which the
// caller refuses as Ansible's does (its check for empty output compares
// bytes with a str and never holds).
func scriptHostVars(ctx context.Context, path, name string) (any, error) {
	out, _, err := runScript(ctx, path, "--host", name)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	if v, err := decodeScriptJSON(out); err == nil {
		return v, nil
	}
	v, err := yaml11.NewDecoder().Vars(out, path)
	if err != nil {
		return nil, &scriptError{fmt.Sprintf("could not parse post variable response: %s, %s", pyfmt.Repr([]any{path, "--host", name}), pyfmt.BytesRepr(string(out)))}
	}
	return v, nil
}

// runScript runs path with args, with no input, its output bounded; a
// failure to start it or a non-zero exit is the plugin's error.
func runScript(ctx context.Context, path string, args ...string) (stdout []byte, stderrText string, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var out, errOut limitedBuffer
	out.limit, errOut.limit = maxScriptOutput, maxScriptOutput
	cmd.Stdout, cmd.Stderr = &out, &errOut
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if out.over || errOut.over {
		return nil, "", &scriptError{fmt.Sprintf("Inventory script (%s) printed more than %d bytes", path, maxScriptOutput)}
	}
	errText := errOut.String()
	if errText != "" && !strings.HasSuffix(errText, "\n") {
		errText += "\n"
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(runErr, &exitErr):
		if args[0] == "--host" {
			return out.Bytes(), errText, nil
		}
		return nil, "", &scriptError{fmt.Sprintf("Inventory script (%s) had an execution error: %s ", path, errText)}
	case runErr != nil:
		return nil, "", &scriptError{fmt.Sprintf("problem running %s (%s)", strings.Join(append([]string{path}, args...), " "), osErrorText(runErr, path))}
	}
	return out.Bytes(), errText, nil
}

// osErrorText is Python's text of the OSError that starting path raised:
// "[Errno 8] Exec format error: '/x'".
func osErrorText(err error, path string) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		if msg != "" {
			msg = strings.ToUpper(msg[:1]) + msg[1:]
		}
		return fmt.Sprintf("[Errno %d] %s: %s", int(errno), msg, pyfmt.Quote(path))
	}
	return err.Error()
}

// decodeScriptJSON reads a script's output as Python's json does.
func decodeScriptJSON(b []byte) (any, error) { return pydict.LoadJSON(b) }

// limitedBuffer is a bytes.Buffer that stops growing at limit.
type limitedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
