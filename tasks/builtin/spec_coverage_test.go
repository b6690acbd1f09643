package builtin

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// recordedSpec is one module's argument specification as ansible-core 2.14
// (or the collection Debian's ansible ships) declares it, recorded by
// testdata/specs/gen.py: from the module's own argument_spec, or, for a
// module that runs on the controller, from its documentation.
type recordedSpec struct {
	FQCN    string                    `json:"fqcn"`
	Source  string                    `json:"source"` // "argument_spec" or "doc"
	Options map[string]recordedOption `json:"options"`
	Returns []string                  `json:"returns"`
}

type recordedOption struct {
	Type     string   `json:"type"`
	Elements string   `json:"elements"`
	Default  any      `json:"default"`
	Choices  []any    `json:"choices"`
	Aliases  []string `json:"aliases"`
	Required bool     `json:"required"`
	// DocOnly: only the documentation lists it (an action plugin's own
	// option), so its type and default are the documentation's.
	DocOnly bool `json:"doc_only"`
}

func loadRecordedSpecs(t *testing.T) map[string]recordedSpec {
	t.Helper()
	b, err := os.ReadFile("testdata/specs/specs.json")
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]recordedSpec
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// internalOptions are options Ansible's modules take from Ansible itself,
// never from a playbook, or that its documentation lists for the free-form
// text (tender passes free-form text as _raw_params) or for "the file
// module's options" (others).
var internalOptions = map[string]bool{"_raw_params": true, "_uses_shell": true, "_diff_peek": true,
	"_original_basename": true, "free_form": true, "free-form": true, "key_value": true, "others": true}

// engineActions are recorded modules tender runs in its engine, without a
// module of the registry; provision's tests check their arguments.
var engineActions = map[string]bool{"setup": true, "gather_facts": true, "meta": true, "async_status": true,
	"wait_for_connection": true, "reboot": true}

// TestSpecCoverage holds every module tender registers to the recorded
// specification of Ansible's module of that name: every option Ansible's
// takes is a parameter of tender's (by name or alias) or refused with a
// reason (Spec.Refused); tender takes no option Ansible's does not; and,
// where the specification comes from the module's own argument_spec, each
// parameter's type, element type, default, choices, aliases and required
// agree. specDiffs lists each difference kept on purpose with its reason;
// a listed difference that is gone fails the test too, so the list stays
// true.
func TestSpecCoverage(t *testing.T) {
	rec := loadRecordedSpecs(t)
	reg := Registry()
	seen := map[string]bool{}
	for _, d := range reg.Defs() {
		if d.Name == "library" {
			continue // runs a module shipped with the content
		}
		r, ok := rec[d.Name]
		if !ok {
			t.Errorf("%s: no recorded specification (testdata/specs/modules.json)", d.Name)
			continue
		}
		for _, diff := range specDifferences(d.Name, d.Spec(), r) {
			key := diff[0]
			seen[key] = true
			if _, listed := specDiffs[key]; !listed {
				t.Errorf("%s: %s", key, diff[1])
			}
		}
	}
	for name := range rec {
		if _, ok := reg.Def(name); !ok && !engineActions[name] {
			t.Errorf("%s: recorded but not registered", name)
		}
	}
	for key := range specDiffs {
		if !seen[key] {
			t.Errorf("%s: listed in specDiffs, but the difference is gone: remove it", key)
		}
	}
}

// specDifferences lists how s differs from r, each as a key
// (module.option.field) and a message.
func specDifferences(m string, s *tasks.Spec, r recordedSpec) [][2]string {
	var out [][2]string
	add := func(o, field, format string, args ...any) {
		out = append(out, [2]string{m + "." + o + "." + field, fmt.Sprintf(format, args...)})
	}
	params := map[string]*tasks.Param{}
	for i := range s.Params {
		p := &s.Params[i]
		params[p.Name] = p
		for _, a := range p.Aliases {
			params[a] = p
		}
	}
	for o := range r.Options {
		if internalOptions[o] {
			continue
		}
		_, implemented := params[o]
		why, refused := s.Refused[o]
		switch {
		case implemented && refused:
			add(o, "refused", "both a parameter and refused (%s)", why)
		case !implemented && !refused:
			add(o, "missing", "Ansible's option %s is neither implemented nor refused with a reason (Spec.Refused)", o)
		case refused && strings.TrimSpace(why) == "":
			add(o, "refused", "refused without a reason")
		}
	}
	for o := range s.Refused {
		if _, ok := r.Options[o]; !ok {
			add(o, "refused", "refused, but Ansible's module has no option %s", o)
		}
	}
	for _, p := range s.Params {
		if internalOptions[p.Name] {
			continue
		}
		ro, ok := r.Options[p.Name]
		if !ok {
			add(p.Name, "extra", "tender takes %s, which Ansible's module does not", p.Name)
			continue
		}
		for _, a := range p.Aliases {
			if !slices.Contains(ro.Aliases, a) {
				add(p.Name, "aliases", "tender's alias %s is not Ansible's (%v)", a, ro.Aliases)
			}
		}
		for _, a := range ro.Aliases {
			if !slices.Contains(p.Aliases, a) {
				add(p.Name, "aliases", "Ansible's alias %s is missing", a)
			}
		}
		if r.Source != "argument_spec" || ro.DocOnly {
			continue // documentation only: names and aliases are what it says surely
		}
		compareParam(&p, ro, func(field, format string, args ...any) { add(p.Name, field, format, args...) })
	}
	return out
}

// kinds maps Ansible's argument types to tender's.
var kinds = map[string]tasks.Kind{"": tasks.Str, "str": tasks.Str, "path": tasks.Path, "bool": tasks.Bool,
	"int": tasks.Int, "list": tasks.List, "dict": tasks.Dict, "raw": tasks.Raw, "float": tasks.Float}

// compareParam reports how p's type, elements, default, choices and
// required differ from Ansible's option ro.
func compareParam(p *tasks.Param, ro recordedOption, add func(field, format string, args ...any)) {
	if k, ok := kinds[ro.Type]; !ok || k != p.Kind {
		add("type", "type %s, Ansible's %s", p.Kind, ro.Type)
	}
	if p.Kind == tasks.List && ro.Elements != "" {
		if k, ok := kinds[ro.Elements]; !ok || k != p.Elements {
			add("elements", "elements %s, Ansible's %s", p.Elements, ro.Elements)
		}
	}
	if g, w := normDefault(p.Default, p.Kind), normDefault(ro.Default, kinds[ro.Type]); g != w {
		add("default", "default %s, Ansible's %s", g, w)
	}
	if g, w := normChoices(stringsToAny(p.Choices)), normChoices(ro.Choices); g != w {
		add("choices", "choices %s, Ansible's %s", g, w)
	}
	if p.Required != ro.Required {
		add("required", "required %v, Ansible's %v", p.Required, ro.Required)
	}
}

// normDefault is a default as a comparable text: a boolean's "yes" is
// True, and an empty list or dict is no default, as a module sees both
// the same.
func normDefault(v any, k tasks.Kind) string {
	switch x := v.(type) {
	case nil:
		return "none"
	case []any:
		if len(x) == 0 {
			return "none"
		}
	case map[string]any:
		if len(x) == 0 {
			return "none"
		}
	case float64:
		if x == float64(int64(x)) {
			return fmt.Sprint(int64(x))
		}
	}
	if l, ok := v.([]any); ok {
		// JSON's numbers are floats: an integral one is an int.
		out := make([]string, len(l))
		for i, e := range l {
			out[i] = normDefault(e, tasks.Str)
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	if k == tasks.Bool {
		if b, err := tasks.ParseBool(v); err == nil {
			return fmt.Sprint(b)
		}
	}
	return expr.Repr(v)
}

func normChoices(cs []any) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprint(c)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// specDiffs are the differences from Ansible's specifications that tender
// keeps, by module.option.field, each with its reason.
var specDiffs = map[string]string{
	"shell.strip_empty_ends.extra":                       "shell is Ansible's command module run through a shell, and command's argument_spec has strip_empty_ends; shell's documentation leaves it out",
	"copy.content.type":                                  "Ansible's copy action plugin turns a list or dict content into JSON before its module's str check; tender's copy takes it raw and does the same",
	"copy.remote_src.default":                            "the default of Ansible's copy action plugin, which reads remote_src before its module does",
	"copy.local_follow.default":                          "the default of Ansible's copy action plugin, which reads local_follow before its module does",
	"template.state.extra":                               "Ansible's template action plugin reads state to refuse it ('state' cannot be specified on a template); tender does the same",
	"assemble.src.required":                              "Ansible's assemble action plugin checks src and dest first, failing with 'src and dest are required' before its module's spec; tender gives that message",
	"assemble.dest.required":                             "as assemble.src.required",
	"assemble.follow.extra":                              "Ansible's assemble action plugin reads follow (for the stat of dest) and passes it to copy",
	"validate_argument_spec.validate_args_context.extra": "Ansible's validate_argument_spec action plugin reads validate_args_context (its _VALID_ARGS), which its documentation leaves out",
	"yum.use.extra":                                      "Ansible's yum action plugin reads use, beside use_backend, to pick the backend",
	"yum.use_backend.default":                            "Ansible's yum action plugin tells use and use_backend given from not given (they are mutually exclusive), so tender's spec has no default; not given means auto, as Ansible's",
	"get_url.timeout.default":                            "get_url and uri share the request parameters (Ansible's url_argument_spec), whose timeout has no default; get_url applies Ansible's 10 s when it is not given",
	"uri.timeout.default":                                "as get_url.timeout.default; uri applies Ansible's 30 s",
	"user.ssh_key_comment.default":                       "Ansible's default is 'ansible-generated on ' and the name of the host the module runs on (recorded here as the recording machine's, 'vm'); tender's script computes it on the host (uname -n) when the option is not given",
	"uri.url.required":                                   "Ansible's uri takes url from url_argument_spec, where it is not required, and without one fails with a Python error (status -1, 'a bytes-like object is required'); tender refuses a missing url up front",
}
