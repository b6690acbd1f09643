package expr

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPluginOptionCases: the cases of testdata/plugins/optcases.yaml give
// every documented option of the builtin lookups, filters and tests as a
// playbook would, and tender answers each as ansible-core did
// (testdata/plugins/optcases.json).
func TestPluginOptionCases(t *testing.T) {
	checkCases(t, "testdata/plugins/optcases.yaml", "testdata/plugins/optcases.json")
}

// documentedPlugin is one plugin of testdata/plugins/options.json.
type documentedPlugin struct {
	Options map[string]struct {
		Type    string   `json:"type"`
		Choices []any    `json:"choices"`
		Aliases []string `json:"aliases"`
	} `json:"options"`
}

func loadDocumentedOptions(t *testing.T) map[string]map[string]documentedPlugin {
	b, err := os.ReadFile("testdata/plugins/options.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]documentedPlugin
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// optionExemptions are the documented options no case gives, each with
// the reason.
var optionExemptions = map[string]string{
	"lookup config on_missing":  "checked against ansible-playbook with tender's configuration by config/lookup_test.go",
	"lookup config plugin_type": "checked against ansible-playbook with tender's configuration by config/lookup_test.go",
	"lookup config plugin_name": "checked against ansible-playbook with tender's configuration by config/lookup_test.go",
}

// TestPluginOptionsAccepted: every option ansible-core 2.14 documents for
// a builtin lookup, filter or test that tender implements (and each alias)
// is given by some case of testdata/cases.yaml,
// testdata/plugins/optcases.yaml or testdata/vault/cases.yaml, whose
// answers TestCasesAgainstAnsible, TestPluginOptionCases and
// TestVaultPluginsAgainstAnsible compare with ansible-core's; and the options
// tender's lookups read as plugin configuration are the ones documented,
// with their types, choices and aliases.
func TestPluginOptionsAccepted(t *testing.T) {
	doc := loadDocumentedOptions(t)
	var srcs []string
	for _, path := range []string{"testdata/cases.yaml", "testdata/plugins/optcases.yaml"} {
		for _, c := range loadYAML11(t, path)["cases"].([]any) {
			m, ok := c.(map[string]any)
			if !ok {
				m = map[string]any{"e": c}
			}
			for _, k := range []string{"e", "t", "w"} {
				if s, ok := m[k].(string); ok {
					srcs = append(srcs, s)
				}
			}
		}
	}
	b, err := os.ReadFile("testdata/vault/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var vaultCases []string
	if err := yaml.Unmarshal(b, &vaultCases); err != nil {
		t.Fatal(err)
	}
	srcs = append(srcs, vaultCases...)
	for _, kind := range []string{"lookup", "filter", "test"} {
		for name, p := range doc[kind] {
			if refusedReason(kind, name) != "" {
				continue
			}
			q := regexp.QuoteMeta(name)
			var use *regexp.Regexp
			switch kind {
			case "lookup":
				use = regexp.MustCompile(`(lookup|query|q)\(\s*['"]` + q + `['"]`)
			case "filter":
				use = regexp.MustCompile(`\|\s*` + q + `\s*\(`)
			case "test":
				use = regexp.MustCompile(`\bis\s+(not\s+)?` + q + `\s*\(`)
			}
			for opt, o := range p.Options {
				if strings.HasPrefix(opt, "_") {
					continue
				}
				key := kind + " " + name + " " + opt
				if _, ok := optionExemptions[key]; ok {
					continue
				}
				for _, n := range append([]string{opt}, o.Aliases...) {
					given := regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\s*=|['"]` + regexp.QuoteMeta(n) + `['"]\s*:`)
					found := false
					for _, s := range srcs {
						if use.MatchString(s) && given.MatchString(s) {
							found = true
							break
						}
					}
					if !found {
						t.Errorf("no case gives the %s %s its option %s", kind, name, n)
					}
				}
			}
		}
	}
	for name, specs := range lookupOptionSpecs {
		p, ok := doc["lookup"][name]
		if !ok {
			t.Errorf("lookupOptionSpecs declares options of %q, which ansible-core does not document", name)
			continue
		}
		seen := map[string]bool{}
		for _, s := range specs {
			seen[s.name] = true
			o, ok := p.Options[s.name]
			if !ok {
				t.Errorf("lookup %s: tender declares the option %s, ansible-core does not", name, s.name)
				continue
			}
			var choices []string
			for _, c := range o.Choices {
				choices = append(choices, Str(c))
			}
			if o.Type != s.typ || strings.Join(choices, ",") != strings.Join(s.choices, ",") || strings.Join(o.Aliases, ",") != strings.Join(s.aliases, ",") {
				t.Errorf("lookup %s option %s: ansible-core declares type %q choices %v aliases %v, tender %q %v %v", name, s.name, o.Type, choices, o.Aliases, s.typ, s.choices, s.aliases)
			}
		}
		for opt := range p.Options {
			if !strings.HasPrefix(opt, "_") && !seen[opt] {
				t.Errorf("lookup %s: ansible-core declares the option %s, lookupOptionSpecs does not", name, opt)
			}
		}
	}
}

// refusedOptions are the documented option values tender refuses, each
// with the reason its error gives.
var refusedOptions = map[string]string{
	`"x" | vault("pw", wrap_object=True)`:                         "wrap_object=True is not supported by tender: its values are plain text, never vault objects",
	`{"a": 1} | to_json(preprocess_unsafe=True)`:                  "preprocess_unsafe=True is not supported by tender",
	`{"a": 1} | to_nice_json(preprocess_unsafe=True)`:             "preprocess_unsafe=True is not supported by tender",
	`lookup("url", "https://example.com/", validate_certs=False)`: "tender does not implement Ansible's open_url",
}

// TestPluginOptionsRefused: what tender cannot do as Ansible does, it
// refuses with its reason rather than doing something else.
func TestPluginOptionsRefused(t *testing.T) {
	for src, why := range refusedOptions {
		_, err := Render("{{ "+src+" }}", NewVars(nil))
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: want the refusal %q, got %v", src, why, err)
		}
	}
}
