package commands

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/osfamily"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// Python interpreter discovery, as ansible-core 2.14 does it for a
// Python module when ansible_python_interpreter is unset or auto*: list
// the Pythons of INTERPRETER_PYTHON_FALLBACK the host has and read its
// os-release; the distribution's entry in Ansible's table of platform
// Pythons wins when the host has it, else the first found, with
// Ansible's warnings (none in the _silent modes). The choice is returned
// as the fact discovered_interpreter_python, which later tasks use.

// discovery is what one discovery found.
type discovery struct {
	interp   string
	warnings []string
}

var reOSRelease = regexp.MustCompile(`(?m)^([A-Za-z0-9_]+)=(.*)$`)

// discoverPython runs the discovery on env's host in mode (auto,
// auto_silent, auto_legacy, auto_legacy_silent).
func discoverPython(ctx context.Context, env *tasks.Env, mode string) (discovery, error) {
	fallback := pythonFallback()
	var b strings.Builder
	b.WriteString("echo PLATFORM; uname; echo FOUND; ")
	for _, py := range fallback {
		fmt.Fprintf(&b, "command -v %s; ", shared.Q(py))
	}
	b.WriteString("echo ENDFOUND; echo OSRELEASE; cat /etc/os-release 2>/dev/null || cat /usr/lib/os-release 2>/dev/null; echo; echo ENDOSRELEASE")
	out, err := shared.Run(ctx, env, b.String(), nil)
	if err != nil {
		return discovery{}, err
	}
	return decideInterpreter(env.Host, mode, fallback, string(out.Stdout)), nil
}

// decideInterpreter reads the discovery script's output and picks the
// interpreter.
func decideInterpreter(host, mode string, fallback []string, out string) discovery {
	silent := strings.HasSuffix(mode, "_silent")
	legacy := strings.HasPrefix(mode, "auto_legacy")
	var d discovery
	warn := func(format string, a ...any) {
		if !silent {
			d.warnings = append(d.warnings, fmt.Sprintf(format, a...))
		}
	}
	const link = "https://docs.ansible.com/ansible-core/2.14/reference_appendices/interpreter_discovery.html"
	platform, found, osr := "unknown", []string(nil), map[string]string{}
	if _, rest, ok := strings.Cut(out, "PLATFORM\n"); ok {
		var section string
		section, rest, _ = strings.Cut(rest, "FOUND\n")
		platform = strings.ToLower(strings.TrimSpace(section))
		section, rest, _ = strings.Cut(rest, "ENDFOUND\n")
		for _, l := range strings.Split(section, "\n") {
			if strings.HasPrefix(l, "/") {
				found = append(found, strings.TrimSpace(l))
			}
		}
		section, _, _ = strings.Cut(strings.TrimPrefix(rest, "OSRELEASE\n"), "ENDOSRELEASE")
		for _, m := range reOSRelease.FindAllStringSubmatch(section, -1) {
			osr[strings.ToLower(m[1])] = strings.Trim(strings.TrimSpace(m[2]), `"'`)
		}
	}
	if len(found) == 0 {
		warn("No python interpreters found for host %s (tried %s)", host, pyList(fallback))
		d.interp = "/usr/bin/python"
		return d
	}
	fallbackWarning := func() discovery {
		warn("Platform %s on host %s is using the discovered Python interpreter at %s, but future installation of another Python interpreter could change the meaning of that path. See %s for more information.",
			platform, host, found[0], link)
		d.interp = found[0]
		return d
	}
	distro, version := strings.ToLower(strings.TrimSpace(osr["id"])), osr["version_id"]
	if platform != "linux" || distro == "" || version == "" {
		return fallbackWarning()
	}
	table := distroPythons()
	versions, ok := table[distro]
	if !ok {
		versions, ok = table[osfamily.OfLower(distro)]
	}
	if !ok {
		return fallbackWarning()
	}
	want := fuzzyVersion(version, versions)
	if legacy && want != "/usr/bin/python" && contains(found, "/usr/bin/python") {
		warn("Distribution %s %s on host %s should use %s, but is using /usr/bin/python for backward compatibility with prior Ansible releases. See %s for more information",
			osr["id"], version, host, want, link)
		d.interp = "/usr/bin/python"
		return d
	}
	if !contains(found, want) {
		if !contains(fallback, want) {
			warn("Platform interpreter %s on host %s is missing from bootstrap list", want, host)
		}
		warn("Distribution %s %s on host %s should use %s, but is using %s, since the discovered platform python interpreter was not present. See %s for more information.",
			osr["id"], version, host, want, found[0], link)
		d.interp = found[0]
		return d
	}
	d.interp = want
	return d
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pyList writes a list of strings as Python's repr does.
func pyList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "'" + s + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// pythonFallback is INTERPRETER_PYTHON_FALLBACK's default.
func pythonFallback() []string {
	v, _ := config.Defaults().Setting("INTERPRETER_PYTHON_FALLBACK")
	var out []string
	if list, ok := v.([]any); ok {
		for _, x := range list {
			out = append(out, fmt.Sprint(x))
		}
	}
	return out
}

// distroPythons is _INTERPRETER_PYTHON_DISTRO_MAP's default: per
// distribution, per version, its platform Python.
func distroPythons() map[string]map[string]string {
	v, _ := config.Defaults().Setting("_INTERPRETER_PYTHON_DISTRO_MAP")
	out := map[string]map[string]string{}
	if m, ok := v.(map[string]any); ok {
		for distro, vm := range m {
			versions := map[string]string{}
			if vmm, ok := vm.(map[string]any); ok {
				for k, p := range vmm {
					versions[k] = fmt.Sprint(p)
				}
			}
			out[distro] = versions
		}
	}
	return out
}

// fuzzyVersion is the table entry for version: its own, else that of the
// nearest version below it, else the oldest (LooseVersion order).
func fuzzyVersion(version string, versions map[string]string) string {
	if p, ok := versions[version]; ok {
		return p
	}
	keys := make([]string, 0, len(versions))
	for k := range versions {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return looseLess(keys[i], keys[j]) })
	pos := sort.Search(len(keys), func(i int) bool { return looseLess(version, keys[i]) })
	if pos == 0 {
		return versions[keys[0]]
	}
	return versions[keys[pos-1]]
}

var reLoose = regexp.MustCompile(`\d+|[a-z]+`)

// looseLess orders versions as Python's LooseVersion: numbers as
// numbers, words as words, component by component.
func looseLess(a, b string) bool {
	pa, pb := reLoose.FindAllString(a, -1), reLoose.FindAllString(b, -1)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil && na != nb:
			return na < nb
		case (ea != nil || eb != nil) && pa[i] != pb[i]:
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}
