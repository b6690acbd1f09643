package expr

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite ../../docs/PLUGINS.md from the plugin registry")

// TestPluginsDocCurrent: plugins_list.go names every plugin tender
// implements and everything ansible-core 2.14 and Jinja2 3.1 ship has an
// entry there that tender honours (implemented, or refused with its
// reason), and docs/PLUGINS.md is what the registry generates
// (-update rewrites it).
func TestPluginsDocCurrent(t *testing.T) {
	listed := map[string]upstreamPlugin{}
	for _, p := range upstreamPlugins {
		key := p.kind + " " + p.name
		if _, dup := listed[key]; dup {
			t.Errorf("plugins_list.go lists the %s %q twice", p.kind, p.name)
		}
		if !contains(pluginKinds, p.kind) {
			t.Errorf("plugins_list.go: %q has an unknown kind %q", p.name, p.kind)
		}
		listed[key] = p
	}
	for _, kind := range pluginKinds {
		impl := implementedPlugins(kind)
		for _, name := range impl {
			p, ok := listed[kind+" "+name]
			switch {
			case !ok:
				t.Errorf("tender implements the %s %q, which plugins_list.go does not list", kind, name)
			case p.refused != "":
				t.Errorf("plugins_list.go says tender refuses the %s %q, but it implements it", kind, name)
			}
		}
		for _, p := range upstreamPlugins {
			if p.kind != kind {
				continue
			}
			if p.refused == "" && !contains(impl, p.name) {
				t.Errorf("plugins_list.go says tender implements the %s %q, but it has no entry for it", kind, p.name)
			}
			if p.refused != "" {
				if err := refusal(kind, p.name); err == nil || !strings.Contains(err.Error(), p.refused) {
					t.Errorf("the %s %q should be refused with its reason, got %v", kind, p.name, err)
				}
			}
		}
	}
	const path = "../../docs/PLUGINS.md"
	want := pluginsMarkdown()
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("docs/PLUGINS.md is out of date: go test ./playbooks/expr -run TestPluginsDocCurrent -update")
	}
}

// refusal uses a refused plugin the way a playbook would.
func refusal(kind, name string) error {
	scope := NewVars(map[string]any{"x": "v"})
	var src string
	switch kind {
	case "filter":
		src = "{{ x | " + name + " }}"
	case "test":
		src = "{{ x is " + name + " }}"
	case "lookup":
		src = "{{ lookup('" + name + "', 'x') }}"
	case "global":
		src = "{{ " + name + "() }}"
	case "statement":
		src = "{% " + name + " %}"
	}
	_, err := Render(src, scope)
	return err
}

// TestEveryPluginHasACase: each plugin tender implements is used by at
// least one case of testdata/cases.yaml, recorded against ansible-core.
func TestEveryPluginHasACase(t *testing.T) {
	b, err := os.ReadFile("testdata/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := string(b)
	for _, kind := range pluginKinds {
		for _, name := range implementedPlugins(kind) {
			q := regexp.QuoteMeta(name)
			var re string
			switch kind {
			case "filter":
				re = `\|\s*` + q + `\b|map\(\s*['"]` + q + `['"]`
			case "test":
				re = `\bis\s+(not\s+)?` + q + `(\W|$)|(select|reject|selectattr|rejectattr)\([^)]*['"]` + q + `['"]`
			case "lookup":
				re = `(lookup|query|q)\(\s*['"]` + q + `['"]`
			case "global":
				re = `\b` + q + `\(`
			case "statement":
				re = `\{%-?\s*` + q + `\b`
			}
			if !regexp.MustCompile(re).MatchString(cases) {
				t.Errorf("no case in testdata/cases.yaml uses the %s %q", kind, name)
			}
		}
	}
}

// TestPluginsDocumented: every filter, test and lookup ansible-core 2.14
// documents as ansible.builtin (testdata/plugins/*.txt, recorded by gen.sh
// from ansible-doc -t KIND -l) has its entry in plugins_list.go, so that
// tender either implements it or refuses it with a reason.
func TestPluginsDocumented(t *testing.T) {
	listed := map[string]bool{}
	for _, p := range upstreamPlugins {
		listed[p.kind+" "+p.name] = true
	}
	for _, kind := range []string{"filter", "test", "lookup"} {
		b, err := os.ReadFile("testdata/plugins/" + kind + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		names := strings.Fields(string(b))
		if len(names) < 20 {
			t.Fatalf("%s: only %d documented plugins recorded", kind, len(names))
		}
		for _, n := range names {
			if !listed[kind+" "+n] {
				t.Errorf("ansible-core documents the %s %q; plugins_list.go has no entry for it", kind, n)
			}
		}
	}
}
