// Package facts gathers a host's facts in one round trip, with no Python on
// the host: an embedded sh script prints what the host has, and the parser
// turns it into Ansible's fact names and values (ansible_os_family,
// ansible_distribution_version, ansible_pkg_mgr, …), computed by the same
// rules ansible-core's setup module uses.
package facts

import (
	_ "embed"
	"fmt"
	"strings"
)

// Script is the sh script that prints a host's facts. Its output is read by
// Parse. It changes nothing on the host.
//
//go:embed facts.sh
var Script string

// raw is the fact script's output, sorted by kind.
type raw struct {
	values map[string]string   // v|name|value
	files  map[string][]string // f|path|line, lines in order
	paths  map[string]bool     // p|path| — the path exists
	bins   map[string]string   // b|name|full path
	env    map[string]string   // e|name|escaped value
}

// parseRaw splits the script's output into its kinds. Unknown kinds are
// ignored so an older parser can read a newer script's output.
func parseRaw(out string) (*raw, error) {
	r := &raw{
		values: map[string]string{}, files: map[string][]string{},
		paths: map[string]bool{}, bins: map[string]string{}, env: map[string]string{},
	}
	for n, line := range strings.Split(out, "\n") {
		if line == "" {
			continue
		}
		kind, rest, ok := strings.Cut(line, "|")
		name, value, ok2 := strings.Cut(rest, "|")
		if !ok || !ok2 {
			return nil, fmt.Errorf("fact script output line %d is malformed: %q", n+1, line)
		}
		switch kind {
		case "v":
			r.values[name] = value
		case "f":
			r.files[name] = append(r.files[name], value)
		case "p":
			r.paths[name] = true
		case "b":
			r.bins[name] = value
		case "e":
			r.env[name] = unescape(value)
		}
	}
	if r.values["system"] == "" {
		return nil, fmt.Errorf("fact script output has no uname -s: is this a POSIX host?")
	}
	return r, nil
}

// unescape reverses the script's escaping of % and newline.
func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	return strings.NewReplacer("%0A", "\n", "%25", "%").Replace(s)
}

// file returns a file's content as lines joined by newlines, and whether
// the host had it.
func (r *raw) file(path string) (string, bool) {
	lines, ok := r.files[path]
	return strings.Join(lines, "\n"), ok
}

// osRelease parses /etc/os-release (KEY=value, values optionally quoted).
// A key present with an empty value maps to "".
func (r *raw) osRelease() map[string]string {
	out := map[string]string{}
	for _, line := range r.files["/etc/os-release"] {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || k == "" || strings.HasPrefix(k, "#") {
			continue
		}
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
			v = strings.NewReplacer(`\"`, `"`, `\$`, `$`, "\\`", "`", `\\`, `\`).Replace(v)
		}
		out[k] = v
	}
	return out
}
