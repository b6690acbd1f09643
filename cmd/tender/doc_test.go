package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestModulesDocCurrent: docs/MODULES.md is what `tender doc --markdown`
// prints, so the documented parameters are the ones the modules accept.
// After changing a module's parameters: go run -tags urfave_cli_no_docs
// ./cmd/tender doc --markdown > docs/MODULES.md
func TestModulesDocCurrent(t *testing.T) {
	code, out, errs := runCLI(t, "doc", "--markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile("../../docs/MODULES.md")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("docs/MODULES.md is out of date: regenerate it with `go run -tags urfave_cli_no_docs ./cmd/tender doc --markdown > docs/MODULES.md`")
	}
	for _, m := range []string{"## apt", "## unarchive", "| dest | path | yes |"} {
		if !strings.Contains(out, m) {
			t.Errorf("the module list lacks %q", m)
		}
	}
}

func TestDocModule(t *testing.T) {
	code, out, _ := runCLI(t, "doc", "ansible.builtin.lineinfile")
	if code != 0 || !strings.HasPrefix(out, "> ANSIBLE.BUILTIN.LINEINFILE ") || !strings.Contains(out, "\n- regexp\n") ||
		!strings.Contains(out, "= path\n") || !strings.Contains(out, "choices: [absent, present]") ||
		!strings.Contains(out, "EXAMPLES:") {
		t.Errorf("tender doc lineinfile: exit %d\n%s", code, out)
	}
	code, _, errs := runCLI(t, "doc", "lineinfle")
	if code == 0 || !strings.Contains(errs, `did you mean "lineinfile"`) {
		t.Errorf("a misspelt module: exit %d, %s", code, errs)
	}
	code, out, _ = runCLI(t, "doc", "-l")
	if code != 0 || !strings.Contains(out, "\nansible.builtin.copy ") || strings.Contains(out, "setup") ||
		!strings.Contains(out, "\nansible.posix.sysctl ") {
		t.Errorf("tender doc -l: exit %d\n%s", code, out)
	}
	if code, _, errs = runCLI(t, "doc"); code == 0 || !strings.Contains(errs, "Missing name(s)") {
		t.Errorf("tender doc without a name: exit %d, %s", code, errs)
	}
	if code, _, errs = runCLI(t, "doc", "-t", "inventory", "ini"); code == 0 || !strings.Contains(errs, "not inventory plugins") {
		t.Errorf("tender doc -t inventory: exit %d, %s", code, errs)
	}
}

// TestDocPlugins: -t filter|test|lookup shows a plugin's documentation
// with the option facts ansible-core documents, and -l lists every
// plugin tender runs, ansible.builtin's by their full names.
func TestDocPlugins(t *testing.T) {
	code, out, _ := runCLI(t, "doc", "-t", "filter", "ansible.builtin.to_json")
	if code != 0 || !strings.HasPrefix(out, "> ANSIBLE.BUILTIN.TO_JSON ") || !strings.Contains(out, "= _input\n") ||
		!strings.Contains(out, "- indent\n") || !strings.Contains(out, "RETURN VALUES:\n- _value") {
		t.Errorf("tender doc -t filter to_json: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "doc", "-t", "lookup", "-l")
	if code != 0 || !strings.Contains(out, "\nansible.builtin.file ") || !strings.Contains(out, "ansible.builtin.env ") {
		t.Errorf("tender doc -t lookup -l: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "doc", "-t", "test", "-j", "version")
	if code != 0 || !strings.Contains(out, `"version_type"`) || !strings.Contains(out, `"choices"`) {
		t.Errorf("tender doc -t test -j version: exit %d\n%s", code, out)
	}
	if code, _, errs := runCLI(t, "doc", "-t", "filter", "nosuch"); code == 0 || !strings.Contains(errs, "no filter plugin") {
		t.Errorf("an unknown filter: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "doc", "-t", "filter", "-s", "to_json"); code == 0 || !strings.Contains(errs, "snippets for modules and lookup plugins only") {
		t.Errorf("a filter snippet: exit %d, %s", code, errs)
	}
}

// TestDocLookupSnippet: -t lookup -s prints ansible-doc's lookup snippet,
// each option's type commented, then a call with the terms as a
// placeholder and every other option at its default.
func TestDocLookupSnippet(t *testing.T) {
	code, out, errs := runCLI(t, "doc", "-t", "lookup", "-s", "ansible.builtin.file", "env")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"# _terms(string): ", "\n# lstrip(bool): ", "\n\nlookup('file', < _terms >, lstrip=False, rstrip=True)\n\n",
		"# default(raw): ", "lookup('env', < _terms >, default=)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("tender doc -t lookup -s file env lacks %q:\n%s", want, out)
		}
	}
}

func TestDocSnippetAndJSON(t *testing.T) {
	code, out, _ := runCLI(t, "doc", "-s", "ping")
	if code != 0 || !strings.HasPrefix(out, "- name: ") || !strings.Contains(out, "\n  ping:\n      data:") {
		t.Errorf("tender doc -s ping: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "doc", "-j", "sysctl")
	var got map[string]struct {
		Doc struct {
			Collection string                    `json:"collection"`
			Options    map[string]map[string]any `json:"options"`
		} `json:"doc"`
		Examples string         `json:"examples"`
		Return   map[string]any `json:"return"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("tender doc -j sysctl: exit %d, %v\n%s", code, err, out)
	}
	e := got["sysctl"]
	if e.Doc.Collection != "ansible.posix" || e.Doc.Options["name"]["required"] != true || e.Examples == "" {
		t.Errorf("tender doc -j sysctl: %+v", e)
	}
}

// TestDocKeywords: -t keyword lists the playbook keywords with what each
// does, and shows a keyword's facts (what it applies to, its type) as
// ansible-doc does, as YAML or JSON.
func TestDocKeywords(t *testing.T) {
	code, out, errs := runCLI(t, "doc", "-t", "keyword", "-l")
	if code != 0 || !strings.Contains(out, "\nbecome: ") || !strings.Contains(out, "\nwhen: ") {
		t.Errorf("tender doc -t keyword -l: exit %d, %s\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, "doc", "-t", "keyword", "become")
	if code != 0 || !strings.HasPrefix(out, "become:\n  applies_to:\n    - Play\n") || !strings.Contains(out, "\n  type: bool\n") {
		t.Errorf("tender doc -t keyword become: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "doc", "-t", "keyword", "-j", "loop")
	var got map[string]map[string]any
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got["loop"]["description"] == "" {
		t.Errorf("tender doc -t keyword -j loop: exit %d, %v\n%s", code, err, out)
	}
	if code, _, errs = runCLI(t, "doc", "-t", "keyword", "whn"); code == 0 || !strings.Contains(errs, `did you mean "when"`) {
		t.Errorf("a misspelt keyword: exit %d, %s", code, errs)
	}
}

// TestDocCallbacks: -t callback lists the callbacks tender has and shows
// one's options with the settings that set them (set_via).
func TestDocCallbacks(t *testing.T) {
	code, out, errs := runCLI(t, "doc", "-t", "callback", "-l")
	if code != 0 || !strings.Contains(out, "ansible.posix.profile_tasks ") || !strings.Contains(out, "\ncommunity.general.yaml ") {
		t.Errorf("tender doc -t callback -l: exit %d, %s\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, "doc", "-t", "callback", "profile_tasks")
	if code != 0 || !strings.HasPrefix(out, "> ANSIBLE.POSIX.PROFILE_TASKS ") ||
		!strings.Contains(out, "        set_via:\n          env:\n          - name: PROFILE_TASKS_SORT_ORDER\n") {
		t.Errorf("tender doc -t callback profile_tasks: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "doc", "-t", "callback", "-j", "ansible.builtin.default")
	var got map[string]struct {
		Doc struct {
			Type    string                    `json:"type"`
			Options map[string]map[string]any `json:"options"`
		} `json:"doc"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got["ansible.builtin.default"].Doc.Type != "stdout" ||
		got["ansible.builtin.default"].Doc.Options["display_skipped_hosts"] == nil {
		t.Errorf("tender doc -t callback -j default: exit %d, %v\n%s", code, err, out)
	}
	if code, _, errs = runCLI(t, "doc", "-t", "callback", "dense"); code == 0 || !strings.Contains(errs, "no callback") {
		t.Errorf("a callback tender lacks: exit %d, %s", code, errs)
	}
}
