package facts

import (
	_ "embed"
	"fmt"
	"strings"
)

// Script is the sh script that prints a host's facts. Its output is read by
// Parse. It changes nothing on the host.
var Script = factsPart + pythonPart

// factsPart is the fact script up to the Python facts; pythonPart finds
// the interpreter, prints its facts and ends the script.
var (
	//go:embed facts.sh
	factsPart string
	//go:embed python.sh
	pythonPart string
)

// raw is the fact script's output, sorted by kind.
type raw struct {
	values  map[string]string   // v|name|value
	files   map[string][]string // f|path|line, lines in order
	paths   map[string]bool     // p|path| — the path exists
	bins    map[string]string   // b|name|full path
	env     map[string]string   // e|name|escaped value
	objects []*object           // o|kind|name, then its a|attr|value lines
	stats   []string            // s|numbers|type|path: stat -f of a mount point
}

// object is one thing the script describes attribute by attribute: a
// network interface, a disk or partition, a local fact file.
type object struct {
	kind, name string
	attrs      [][2]string // in order; a name may repeat
}

// get returns the first value of attribute k.
func (o *object) get(k string) (string, bool) {
	for _, a := range o.attrs {
		if a[0] == k {
			return a[1], true
		}
	}
	return "", false
}

// all returns every value of attribute k, in order.
func (o *object) all(k string) []string {
	var out []string
	for _, a := range o.attrs {
		if a[0] == k {
			out = append(out, a[1])
		}
	}
	return out
}

// objectsOf returns the objects of one kind, in order.
func (r *raw) objectsOf(kind string) []*object {
	var out []*object
	for _, o := range r.objects {
		if o.kind == kind {
			out = append(out, o)
		}
	}
	return out
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
		case "o":
			r.objects = append(r.objects, &object{kind: name, name: value})
		case "a":
			if len(r.objects) > 0 {
				o := r.objects[len(r.objects)-1]
				o.attrs = append(o.attrs, [2]string{name, value})
			}
		case "s":
			r.stats = append(r.stats, name+"|"+value)
		}
	}
	if r.values["system"] == "" {
		return nil, fmt.Errorf("fact script output has no uname -s: is this a POSIX host?")
	}
	return r, nil
}

// isRoot tells whether the script ran with real user id 0.
func (r *raw) isRoot() bool {
	u := strings.Fields(r.values["uids"])
	return len(u) > 0 && u[0] == "0"
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
