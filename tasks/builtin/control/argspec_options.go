package control

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// The per-option steps of the argument-spec validation: fallbacks,
// aliases, no_log values, type conversion and choices, as ansible-core's
// module_utils/common/parameters.py does them.

// fallbacks refuses an option whose fallback ansible-core would call:
// given as data, a fallback's strategy is a name, and ansible-core fails
// calling it. A fallback whose first item is null is none, as there.
func fallbacks(spec map[string]any, names []string, params map[string]any, ctx []string) error {
	for _, n := range names {
		fb, ok := optAttrs(spec, n)["fallback"]
		if !ok {
			continue
		}
		if _, given := params[n]; given {
			continue
		}
		items, _ := shared.PyIter(fb)
		if len(items) == 0 || items[0] == nil {
			continue
		}
		return fmt.Errorf("argument_spec: option '%s': a fallback cannot be given as data (%s): ansible-core 2.14 fails calling it ('%s' object is not callable)",
			optPath(ctx, n), shared.PyToStr(items[0]), shared.PyClass(items[0]))
	}
	return nil
}

func optPath(ctx []string, n string) string {
	return strings.Join(append(append([]string(nil), ctx...), n), " -> ")
}

// handleAliases is ansible-core's _handle_aliases: each alias given sets
// its option (the alias stays too) and the aliases map to their options.
// It stops at the first option that is both required and defaulted, or
// whose aliases are a string, with ansible-core's message: the options
// before it have been handled.
func handleAliases(spec map[string]any, names []string, params map[string]any) (map[string]string, error) {
	out := map[string]string{}
	for _, n := range names {
		attrs := optAttrs(spec, n)
		if attrs["default"] != nil && shared.PyTruthy(attrs["required"]) {
			return nil, fmt.Errorf("internal error: required and default are mutually exclusive for %s", n)
		}
		aliases, ok := attrs["aliases"]
		if !ok || aliases == nil {
			continue
		}
		list, ok := aliases.([]any)
		if !ok {
			return nil, errors.New("internal error: aliases must be a list or tuple")
		}
		for _, a := range list {
			name, _ := shared.IsPyStr(a)
			out[name] = n
			if val, given := params[name]; given {
				params[n] = val
			}
		}
	}
	return out, nil
}

// listNoLog collects the values of no_log options, and walks the
// suboptions as ansible-core's _list_no_log_values does, failing where it
// fails: on a suboption value that is not (and does not parse as) a dict.
func (v *argSpecRun) listNoLog(spec map[string]any, names []string, params map[string]any) error {
	for _, n := range names {
		attrs := optAttrs(spec, n)
		if shared.PyTruthy(attrs["no_log"]) && shared.PyTruthy(params[n]) {
			v.noLog = append(v.noLog, noLogStrings(params[n])...)
		}
		sub, _ := attrs["options"].(map[string]any)
		if sub == nil || !hasSubOptions(attrs) || params[n] == nil {
			continue
		}
		elements, ok := params[n].([]any)
		if !ok {
			elements = []any{params[n]}
		}
		wanted, _ := shared.IsPyStr(attrs["type"])
		for _, e := range elements {
			if _, ok := shared.IsPyStr(e); ok {
				d, err := argTypeDict(e)
				if err != nil {
					return err
				}
				e = d
			}
			m, ok := e.(map[string]any)
			if !ok {
				return fmt.Errorf("Value '%s' in the sub parameter field '%s' must by a %s, not '%s'", shared.PyToStr(e), n, wanted, shared.PyClass(e))
			}
			if err := v.listNoLog(sub, shared.SortedMapKeys(sub), m); err != nil {
				return err
			}
		}
	}
	return nil
}

// noLogStrings are the strings of a no_log value: its text, its numbers,
// the strings in its containers (a dict's values, not its keys).
func noLogStrings(v any) []string {
	switch x := v.(type) {
	case nil, bool:
		return nil
	case int, *big.Int, float64:
		return []string{shared.PyToStr(x)}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, noLogStrings(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, k := range shared.SortedMapKeys(x) {
			out = append(out, noLogStrings(x[k])...)
		}
		return out
	}
	if s, ok := shared.IsPyStr(v); ok && s != "" {
		return []string{s}
	}
	return nil
}

// specType is an option's type (or elements) name; nil is str.
func specType(t any) string {
	if s, ok := shared.IsPyStr(t); ok {
		return s
	}
	return "str"
}

// convertTypes is ansible-core's _validate_argument_types: each given
// option that is not nil is converted to its type, and a list's elements
// to theirs. A value that fails keeps what it was; an element that fails
// is left out of the list.
func (v *argSpecRun) convertTypes(spec map[string]any, names []string, params map[string]any, ctx []string) {
	in := ""
	if len(ctx) > 0 {
		in = fmt.Sprintf(" found in '%s'.", strings.Join(ctx, " -> "))
	}
	for _, n := range names {
		value, given := params[n]
		if !given || value == nil {
			continue
		}
		attrs := optAttrs(spec, n)
		wanted := specType(attrs["type"])
		conv, err := v.convert(wanted, value)
		if err == nil {
			params[n] = conv
			if attrs["elements"] != nil && shared.PyTruthy(attrs["elements"]) {
				_, isList := conv.([]any)
				if t, _ := shared.IsPyStr(attrs["type"]); t != "list" || !isList {
					v.fail(fmt.Sprintf("Invalid type %s for option '%s'%s, elements value check is supported only with 'list' type", wanted, shared.PyToStr(conv), in))
				}
				var items []any
				if items, err = shared.PyIter(conv); err == nil {
					params[n] = v.convertElements(specType(attrs["elements"]), n, items, ctx)
				}
			}
		}
		if err != nil {
			v.fail(fmt.Sprintf("argument '%s' is of type %s%s and we were unable to convert to %s: %s", n, shared.PyTypeOf(value), in, wanted, err))
		}
	}
}

// convert is argSpecTypes[wanted]; a path sees the controller's
// environment as the run's sandbox shows it.
func (v *argSpecRun) convert(wanted string, x any) (any, error) {
	if wanted == "path" {
		return argTypePathUnder(v.sandbox, x)
	}
	return argSpecTypes[wanted](x)
}

// convertElements is ansible-core's _validate_elements.
func (v *argSpecRun) convertElements(wanted, n string, items []any, ctx []string) []any {
	out := make([]any, 0, len(items))
	for _, e := range items {
		c, err := v.convert(wanted, e)
		if err != nil {
			msg := fmt.Sprintf("Elements value for option '%s'", n)
			if len(ctx) > 0 {
				msg += fmt.Sprintf(" found in '%s'", strings.Join(ctx, " -> "))
			}
			v.fail(fmt.Sprintf("%s is of type %s and we were unable to convert to %s: %s", msg, shared.PyTypeOf(e), wanted, err))
			continue
		}
		out = append(out, c)
	}
	return out
}

// checkChoices is ansible-core's _validate_argument_values.
func (v *argSpecRun) checkChoices(spec map[string]any, names []string, params map[string]any, ctx []string) {
	for _, n := range names {
		choicesAttr, ok := optAttrs(spec, n)["choices"]
		if !ok || choicesAttr == nil {
			continue
		}
		choices, ok := choicesAttr.([]any)
		if !ok {
			v.fail(foundIn(fmt.Sprintf("internal error: choices for argument %s are not iterable: %s", n, shared.PyToStr(choicesAttr)), ctx))
			continue
		}
		value, given := params[n]
		if !given {
			continue
		}
		set := newChoiceSet(choices)
		if list, ok := value.([]any); ok {
			var diff []any
			for _, e := range list {
				if !set.has(e) {
					diff = append(diff, e)
				}
			}
			if len(diff) > 0 {
				// ansible-core fails outright when a value it must list is
				// not a string; tender lists it as str() shows it.
				v.fail(foundIn(fmt.Sprintf("value of %s must be one or more of: %s. Got no match for: %s", n, shared.PyStrJoin(", ", choices), shared.PyStrJoin(", ", diff)), ctx))
			}
			continue
		}
		if set.has(value) {
			continue
		}
		// YAML may have turned yes/no into booleans that str made True or
		// False: one choice among the booleans' spellings is taken instead.
		if s, ok := shared.IsPyStr(value); ok && (s == "False" || s == "True") {
			if c, ok := oneBooleanChoice(choices, s == "True"); ok {
				params[n] = c
				continue
			}
		}
		v.fail(foundIn(fmt.Sprintf("value of %s must be one of: %s, got: %s", n, shared.PyStrJoin(", ", choices), shared.PyToStr(value)), ctx))
	}
}

// oneBooleanChoice returns the one choice that spells the boolean b
// (ansible-core's BOOLEANS_TRUE or BOOLEANS_FALSE), if exactly one does.
func oneBooleanChoice(choices []any, b bool) (any, bool) {
	spellings := []any{"n", "no", "off", "0", "false", "f", 0}
	if b {
		spellings = []any{"y", "yes", "on", "1", "true", "t", 1}
	}
	var found []any
	for _, c := range choices {
		member := false
		for _, s := range spellings {
			if _, isStr := s.(string); isStr == isStrValue(c) && shared.PyEqual(c, s) {
				member = true
			}
		}
		if member && !shared.PyIn(c, found) {
			found = append(found, c)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return nil, false
}

func isStrValue(v any) bool { _, ok := shared.IsPyStr(v); return ok }

// choiceSet answers Python's `v in choices` without walking the choices
// for each scalar: a long list checked against many choices stays linear.
type choiceSet struct {
	strs   map[string]bool
	nums   map[float64]bool
	others []any // None and containers, compared one by one
}

func newChoiceSet(choices []any) choiceSet {
	s := choiceSet{strs: map[string]bool{}, nums: map[float64]bool{}}
	for _, c := range choices {
		if str, ok := shared.IsPyStr(c); ok {
			s.strs[str] = true
		} else if n, ok := expr.Number(c); ok && n == n && !bigInt(c) {
			s.nums[n] = true
		} else {
			s.others = append(s.others, c)
		}
	}
	return s
}

func (s choiceSet) has(v any) bool {
	if str, ok := shared.IsPyStr(v); ok {
		return s.strs[str]
	}
	if n, ok := expr.Number(v); ok && !bigInt(v) {
		return s.nums[n]
	}
	return shared.PyIn(v, s.others)
}

// bigInt reports an int a float64 cannot hold exactly: such ints are
// compared one by one, exactly, as Python compares its ints.
func bigInt(v any) bool {
	if _, ok := v.(*big.Int); ok {
		return true
	}
	i, ok := v.(int)
	return ok && (i > 1<<53 || i < -(1<<53))
}
