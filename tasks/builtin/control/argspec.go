package control

import (
	"sort"
	"strings"

	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// checkArgSpec validates params against an argument spec as ansible-core
// 2.14's ArgumentSpecValidator.validate does for the validate_argument_spec
// action (lib/ansible/module_utils/common/arg_spec.py and parameters.py):
// fallbacks, aliases, unsupported parameters, defaults, required
// arguments, type conversion, choices, then each option's suboptions
// (options, apply_defaults, and the mutually_exclusive, required_together,
// required_one_of, required_if and required_by given beside them), level
// by level. The action gives no top-level constraints: at the top every
// key of spec is an option, as in ansible-core.
//
// It returns the validated values (aliases kept beside their options,
// absent options set to their default or nil, as ansible-core leaves
// them) and ansible-core's error messages in its order. Options are
// walked in sorted order, since a Go map does not keep the YAML's order:
// the messages come in ansible-core's order when the spec is written
// sorted. params is not changed.
//
// An error return is a spec tender refuses (checkSpecShape), where
// ansible-core would fail with a Python exception or take a name for a
// callable: a fallback, an unknown type, an option that is not a mapping.
// Values nested deeper than argSpecMaxValueDepth are refused too.
func checkArgSpec(spec, params map[string]any) (validated map[string]any, errs []string, err error) {
	return checkArgSpecUnder(nil, spec, params)
}

// checkArgSpecUnder is checkArgSpec under a controller sandbox: a path
// option's $VAR and ~ expand only as the sandbox lets the playbook see
// the controller's environment (argTypePathUnder).
func checkArgSpecUnder(sandbox *sandbox.Policy, spec, params map[string]any) (validated map[string]any, errs []string, err error) {
	if err := checkSpecShape(spec, nil); err != nil {
		return nil, nil, err
	}
	c, err := shared.CopyValue(params, 0)
	if err != nil {
		return nil, nil, err
	}
	p := c.(map[string]any)
	if p == nil {
		p = map[string]any{}
	}
	v := &argSpecRun{unsupported: map[string]supportedNames{}, sandbox: sandbox}
	if err := v.level(spec, p, nil, nil); err != nil {
		return nil, nil, err
	}
	if len(v.unsupported) > 0 {
		v.errs = append(v.errs, v.unsupportedMessage())
	}
	out := shared.PlainValue(p).(map[string]any)
	return out, v.masked(), nil
}

// argSpecRun is one validation's state.
type argSpecRun struct {
	errs []string
	// noLog are the values of no_log options, hidden from the messages.
	noLog []string
	// unsupported maps each unsupported parameter (dotted by context) to
	// the names its level supports.
	unsupported map[string]supportedNames
	// sandbox bounds what a path's expansions read (nil: everything).
	sandbox *sandbox.Policy
}

type supportedNames struct{ params, aliases []string }

func (v *argSpecRun) fail(msg string) { v.errs = append(v.errs, msg) }

// foundIn appends ansible-core's " found in a -> b" to msg in a suboption.
func foundIn(msg string, ctx []string) string {
	if len(ctx) == 0 {
		return msg
	}
	return msg + " found in " + strings.Join(ctx, " -> ")
}

// level validates one level's params: the top (attrs nil) or one element
// of an option's suboptions (attrs the option's attributes, ctx the names
// of the options above, the option's own last).
func (v *argSpecRun) level(spec, params map[string]any, attrs map[string]any, ctx []string) error {
	names := shared.SortedMapKeys(spec)
	if err := fallbacks(spec, names, params, ctx); err != nil {
		return err
	}
	aliases, aliasErr := handleAliases(spec, names, params)
	if aliasErr != nil {
		v.fail(aliasErr.Error())
	}
	if err := v.listNoLog(spec, names, params); err != nil {
		v.fail(err.Error())
	}
	v.findUnsupported(spec, names, params, aliases, aliasErr, ctx)
	if attrs != nil {
		if msg := checkMutuallyExclusive(attrs["mutually_exclusive"], params, ctx); msg != "" {
			v.fail(msg)
		}
	}
	v.setDefaults(spec, names, params, false)
	var missing []string
	for _, n := range names {
		if _, ok := params[n]; !ok && shared.PyTruthy(optAttrs(spec, n)["required"]) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		v.fail(foundIn("missing required arguments: "+strings.Join(missing, ", "), ctx))
	}
	v.convertTypes(spec, names, params, ctx)
	v.checkChoices(spec, names, params, ctx)
	if attrs != nil {
		if msg := checkRequiredTogether(attrs["required_together"], params, ctx); msg != "" {
			v.fail(msg)
		}
		if msg := checkRequiredOneOf(attrs["required_one_of"], params, ctx); msg != "" {
			v.fail(msg)
		}
		if msg := checkRequiredIf(attrs["required_if"], params, ctx); msg != "" {
			v.fail(msg)
		}
		if msg := checkRequiredBy(attrs["required_by"], params, ctx); msg != "" {
			v.fail(msg)
		}
	}
	v.setDefaults(spec, names, params, true)
	return v.subOptions(spec, names, params, ctx)
}

// optAttrs returns option n's attributes (checkSpecShape made sure they
// are a mapping).
func optAttrs(spec map[string]any, n string) map[string]any {
	m, _ := spec[n].(map[string]any)
	return m
}

// setDefaults is ansible-core's _set_defaults: a default that is not nil
// fills an absent option; with all, an absent option without one is set
// to nil.
func (v *argSpecRun) setDefaults(spec map[string]any, names []string, params map[string]any, all bool) {
	for _, n := range names {
		if _, ok := params[n]; ok {
			continue
		}
		attrs := optAttrs(spec, n)
		def := attrs["default"]
		if def == nil && !all {
			continue
		}
		d, err := shared.CopyValue(def, 0)
		if err != nil {
			d = def
		}
		if shared.PyTruthy(attrs["no_log"]) && shared.PyTruthy(d) {
			v.noLog = append(v.noLog, noLogStrings(d)...)
		}
		params[n] = d
	}
}

// subOptions validates the suboptions of each option that has them (type
// dict, or list with elements dict), each element of a list on its own.
func (v *argSpecRun) subOptions(spec map[string]any, names []string, params map[string]any, ctx []string) error {
	for _, n := range names {
		attrs := optAttrs(spec, n)
		if !hasSubOptions(attrs) {
			continue
		}
		sub, _ := attrs["options"].(map[string]any)
		if shared.PyTruthy(attrs["apply_defaults"]) {
			if attrs["options"] == nil {
				continue
			}
			if params[n] == nil {
				params[n] = map[string]any{}
			}
		} else if _, given := params[n]; attrs["options"] == nil || !given || params[n] == nil {
			continue
		}
		sctx := append(append([]string(nil), ctx...), n)
		elements, isList := params[n].([]any)
		if !isList {
			elements = []any{params[n]}
		}
		for _, e := range elements {
			m, ok := e.(map[string]any)
			if !ok {
				v.fail("value of '" + n + "' must be of type dict or list of dicts")
				continue
			}
			if err := v.level(sub, m, attrs, sctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// hasSubOptions: ansible-core validates suboptions of type dict and of
// type list with elements dict.
func hasSubOptions(attrs map[string]any) bool {
	t, _ := shared.IsPyStr(attrs["type"])
	e, _ := shared.IsPyStr(attrs["elements"])
	return t == "dict" || (t == "list" && e == "dict")
}

// findUnsupported records the parameters of this level that are neither
// options nor aliases. When the aliases could not be worked out
// (aliasErr), ansible-core fails again working out what is supported and
// reports that instead, as tender does.
func (v *argSpecRun) findUnsupported(spec map[string]any, names []string, params map[string]any, aliases map[string]string, aliasErr error, ctx []string) {
	var unknown []string
	for k := range params {
		if _, ok := spec[k]; ok {
			continue
		}
		if _, ok := aliases[k]; ok {
			continue
		}
		unknown = append(unknown, k)
	}
	if len(unknown) == 0 {
		return
	}
	if aliasErr != nil {
		v.fail(aliasErr.Error())
		return
	}
	var sup supportedNames
	sup.params = append(sup.params, names...)
	for a := range aliases {
		sup.aliases = append(sup.aliases, a)
	}
	sort.Strings(sup.aliases)
	for _, k := range unknown {
		v.unsupported[strings.Join(append(append([]string(nil), ctx...), k), ".")] = sup
	}
}

// unsupportedMessage is ansible-core's message for every unsupported
// parameter, with the supported names of one of their levels (ansible-core
// takes whichever its set yields last; tender the last in sorted order).
func (v *argSpecRun) unsupportedMessage() string {
	names := make([]string, 0, len(v.unsupported))
	for n := range v.unsupported {
		names = append(names, n)
	}
	sort.Strings(names)
	sup := v.unsupported[names[len(names)-1]]
	var params []string
	for _, p := range sup.params {
		if !sortedContains(sup.aliases, p) {
			params = append(params, p)
		}
	}
	supported := strings.Join(params, ", ")
	if len(sup.aliases) > 0 {
		supported += " (" + strings.Join(sup.aliases, ", ") + ")"
	}
	return strings.Join(names, ", ") + ". Supported parameters include: " + supported + "."
}

func sortedContains(l []string, s string) bool {
	i := sort.SearchStrings(l, s)
	return i < len(l) && l[i] == s
}

// masked returns the messages with the values of no_log options hidden,
// as ansible-core hides them from a module's output: a message that is
// the value becomes VALUE_SPECIFIED_IN_NO_LOG_PARAMETER, a value inside
// one ********. ansible-core's validate_argument_spec action does not
// hide them; tender does (no secret in output).
func (v *argSpecRun) masked() []string {
	if len(v.noLog) == 0 {
		return v.errs
	}
	out := make([]string, len(v.errs))
	for i, msg := range v.errs {
		for _, s := range v.noLog {
			if msg == s {
				msg = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
				break
			}
			msg = strings.ReplaceAll(msg, s, "********")
		}
		out[i] = msg
	}
	return out
}
