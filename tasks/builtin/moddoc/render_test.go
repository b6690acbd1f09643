package moddoc

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"Set I(path) to C(/etc)":                                           "Set `path' to `/etc'",
		"B(Warning) see M(ansible.builtin.copy)":                           "*Warning* see [ansible.builtin.copy]",
		"U(https://x.example) L(the docs, https://d.example) R(text, ref)": "https://x.example the docs <https://d.example> text",
		"CI(x) stays": "CI(x) stays",
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("aaa bbb ccc ddd", 9, "> ", "  ")
	if got != "> aaa bbb\n  ccc ddd" {
		t.Errorf("%q", got)
	}
	if got := wrap("averyveryverylongword x", 8, "", ""); got != "averyveryverylongword\nx" {
		t.Errorf("a long word: %q", got)
	}
}

// testModule is a small module with a required option, a default, a
// list, an alias, a refused option, and documented returns.
func testModule() Module {
	spec := &tasks.Spec{Module: "thing", Refused: map[string]string{"legacy": "gone"}, Params: []tasks.Param{
		{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"dest"}},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "items", Kind: tasks.List},
		{Name: "_raw_params"},
	}}
	doc := &Doc{Short: "Does C(things)", Description: Lines{"First.", "Second."},
		Options:   map[string]Lines{"path": {"Where."}, "state": {"Whether."}, "items": {"Which."}},
		CheckMode: "full", Examples: "- example.x.thing:\n    path: /a\n",
		Returns: map[string]Return{"path": {Description: Lines{"The path."}, Returned: "always", Type: "str", Sample: "/a"}}}
	return Module{Name: "thing", FQCN: "example.x.thing", Spec: spec, Doc: doc}
}

func TestText(t *testing.T) {
	out := Text(testModule())
	for _, want := range []string{"> EXAMPLE.X.THING    (built into tender)\n", "        First. Second.\n",
		"= path\n        Where.\n        aliases: [dest]\n        type: path\n",
		"- state\n        Whether.\n        choices: [absent, present]\n        default: present\n",
		"- items\n        Which.\n        default: null\n        elements: str\n        type: list\n",
		"REFUSED BY TENDER", "      * legacy: gone\n", "check_mode:\n          support: full\n",
		"EXAMPLES:\n\n- example.x.thing:\n", "RETURN VALUES:\n- path\n        The path.\n        returned: always\n        sample: /a\n        type: str\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "_raw_params") {
		t.Errorf("an internal parameter is shown:\n%s", out)
	}
	if strings.Index(out, "- items") > strings.Index(out, "= path") {
		t.Errorf("options are not sorted:\n%s", out)
	}
}

func TestSnippetAndJSON(t *testing.T) {
	m := testModule()
	s := Snippet(m)
	if !strings.HasPrefix(s, "- name: Does `things'\n  thing:\n") || !strings.Contains(s, "      path:                  # (required) Where.\n") {
		t.Errorf("snippet:\n%s", s)
	}
	j := JSON(m)
	doc := j["doc"].(map[string]any)
	opts := doc["options"].(map[string]any)
	path := opts["path"].(map[string]any)
	if doc["collection"] != "example.x" || path["required"] != true || path["type"] != "path" || opts["_raw_params"] != nil {
		t.Errorf("json: %+v", doc)
	}
	if r := j["return"].(map[string]any)["path"].(map[string]any); r["sample"] != "/a" || r["returned"] != "always" {
		t.Errorf("json return: %+v", r)
	}
}

func TestFor(t *testing.T) {
	d, err := For("ping")
	if err != nil || d.Short == "" || len(d.Options["data"]) == 0 {
		t.Fatalf("ping: %v %+v", err, d)
	}
	if _, err := For("no-such-module"); err == nil {
		t.Error("a module without a file has documentation")
	}
	if FQCN("mount", []string{"ansible.builtin.mount", "ansible.posix.mount"}) != "ansible.posix.mount" || FQCN("ping", nil) != "ansible.builtin.ping" {
		t.Error("FQCN")
	}
}

func TestPlainNested(t *testing.T) {
	for in, want := range map[string]string{
		"C(x is version('1', '>=')) holds": "`x is version('1', '>=')' holds",
		"C(f(a, b)) and I(opt)":            "`f(a, b)' and `opt'",
		"an unclosed C(x":                  "an unclosed C(x",
		"ABC(x)":                           "ABC(x)",
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}
