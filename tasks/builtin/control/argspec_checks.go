package control

import (
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// The spec's shape, and the checks ansible-core runs beside an option's
// suboptions (module_utils/common/validation.py): each returns
// ansible-core's message, or "" when the check passes. Their arguments
// are read with Python's rules, quirks included (a term that is a string
// is one name; a group that is a string is its characters).

// argSpecMaxDepth bounds how deep options may nest in a spec.
const argSpecMaxDepth = 32

// levelChecks are the attributes that, beside options, constrain them.
var levelChecks = map[string]bool{"mutually_exclusive": true, "required_together": true,
	"required_one_of": true, "required_if": true, "required_by": true}

// checkSpecShape refuses, before any value is looked at, a spec
// ansible-core could not use without failing with a Python exception, or
// that names a type it does not have (a callable cannot be named in
// data): an option that is not a mapping, an unknown type or elements, a
// fallback that is not a list, aliases that are not names, options nested
// deeper than argSpecMaxDepth.
func checkSpecShape(spec map[string]any, path []string) error {
	if len(path) > argSpecMaxDepth {
		return fmt.Errorf("argument_spec: options nest deeper than %d levels (at '%s'): tender refuses the spec", argSpecMaxDepth, strings.Join(path, " -> "))
	}
	for _, n := range shared.SortedMapKeys(spec) {
		where := optPath(path, n)
		attrs, ok := spec[n].(map[string]any)
		if !ok {
			msg := fmt.Sprintf("argument_spec: option '%s' must be a dict of its attributes, got %s", where, shared.PyTypeOf(spec[n]))
			if levelChecks[n] && len(path) == 0 {
				msg += " (ansible-core 2.14 takes every key of argument_spec as an option; " + n + " applies only beside an option's options)"
			}
			return fmt.Errorf("%s", msg)
		}
		for _, key := range []string{"type", "elements"} {
			t, given := attrs[key]
			if !given || t == nil {
				continue
			}
			name, ok := shared.IsPyStr(t)
			if !ok || argSpecTypes[name] == nil {
				return fmt.Errorf("argument_spec: option '%s': %s %s is not one of ansible-core's types (%s); a type cannot name a callable in data",
					where, key, shared.PyRepr(t), argSpecTypeNames)
			}
		}
		if err := checkAttrShapes(attrs, where); err != nil {
			return err
		}
		if sub, given := attrs["options"]; given && sub != nil {
			m, ok := sub.(map[string]any)
			if !ok {
				return fmt.Errorf("argument_spec: option '%s': options must be a dict of options, got %s", where, shared.PyTypeOf(sub))
			}
			if err := checkSpecShape(m, append(append([]string(nil), path...), n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkAttrShapes checks the attributes ansible-core would fail on.
func checkAttrShapes(attrs map[string]any, where string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("argument_spec: option '%s': "+format, append([]any{where}, args...)...)
	}
	if a, given := attrs["aliases"]; given && a != nil {
		if l, ok := a.([]any); ok {
			for _, e := range l {
				if !isStrValue(e) {
					return bad("aliases must be names, got %s", shared.PyRepr(e))
				}
			}
		} else if !isStrValue(a) {
			return bad("aliases must be a list of names, got %s", shared.PyTypeOf(a))
		}
	}
	if d, given := attrs["deprecated_aliases"]; given {
		l, ok := d.([]any)
		if !ok {
			return bad("deprecated_aliases must be a list of dicts, got %s", shared.PyTypeOf(d))
		}
		for _, e := range l {
			if _, ok := e.(map[string]any); !ok {
				return bad("deprecated_aliases must be a list of dicts, got an item %s", shared.PyRepr(e))
			}
		}
	}
	if fb, given := attrs["fallback"]; given {
		if items, err := shared.PyIter(fb); err != nil || len(items) == 0 {
			return bad("fallback must be a list [strategy, ...], got %s", shared.PyRepr(fb))
		}
	}
	if ri, given := attrs["required_if"]; given && ri != nil {
		l, ok := ri.([]any)
		if !ok {
			return bad("required_if must be a list of [option, value, [options]] entries, got %s", shared.PyTypeOf(ri))
		}
		for _, e := range l {
			req, ok := e.([]any)
			if !ok || (len(req) != 3 && len(req) != 4) || !isStrValue(req[0]) {
				return bad("required_if entries must be [option, value, [options]] or [option, value, [options], any], got %s", shared.PyRepr(e))
			}
			if _, ok := req[2].([]any); !ok && !isStrValue(req[2]) {
				return bad("required_if entries must list the options they require, got %s", shared.PyRepr(e))
			}
		}
	}
	if rb, given := attrs["required_by"]; given && rb != nil {
		if _, ok := rb.(map[string]any); !ok {
			return bad("required_by must be a dict of option: [options], got %s", shared.PyTypeOf(rb))
		}
	}
	return nil
}

// countTerms is ansible-core's count_terms: how many of terms (one name,
// or a list of names) are given.
func countTerms(terms any, params map[string]any) (int, error) {
	items := []any{terms}
	switch terms.(type) {
	case []any, map[string]any:
		items, _ = shared.PyIter(terms)
	}
	seen := map[string]bool{}
	for _, t := range items {
		switch t.(type) {
		case []any, map[string]any:
			return 0, fmt.Errorf("unhashable type: '%s'", shared.PyClass(t))
		}
		if s, ok := shared.IsPyStr(t); ok {
			if _, given := params[s]; given {
				seen[s] = true
			}
		}
	}
	return len(seen), nil
}

// joinValue is Python's sep.join(v) for any v.
func joinValue(sep string, v any) (string, error) {
	items, err := shared.PyIter(v)
	if err != nil {
		return "", fmt.Errorf("can only join an iterable")
	}
	return shared.PyJoin(sep, items)
}

// termGroups lists the groups of a check's terms (none when the check is
// not given), or the error Python gives when they cannot be iterated.
func termGroups(terms any) ([]any, string) {
	if terms == nil {
		return nil, ""
	}
	groups, err := shared.PyIter(terms)
	if err != nil {
		return nil, err.Error()
	}
	return groups, ""
}

func checkMutuallyExclusive(terms any, params map[string]any, ctx []string) string {
	groups, msg := termGroups(terms)
	if msg != "" {
		return msg
	}
	var full []string
	for _, g := range groups {
		n, err := countTerms(g, params)
		if err != nil {
			return err.Error()
		}
		if n > 1 {
			s, err := joinValue("|", g)
			if err != nil {
				return err.Error()
			}
			full = append(full, s)
		}
	}
	if len(full) == 0 {
		return ""
	}
	return foundIn("parameters are mutually exclusive: "+strings.Join(full, ", "), ctx)
}

func checkRequiredOneOf(terms any, params map[string]any, ctx []string) string {
	groups, msg := termGroups(terms)
	if msg != "" {
		return msg
	}
	for _, g := range groups {
		n, err := countTerms(g, params)
		if err != nil {
			return err.Error()
		}
		if n == 0 {
			return groupMessage("one of the following is required: ", g, ctx)
		}
	}
	return ""
}

// groupMessage is a check's failure naming the group of terms g, joined
// with ", " as ansible-core joins them.
func groupMessage(prefix string, g any, ctx []string) string {
	s, err := joinValue(", ", g)
	if err != nil {
		return err.Error()
	}
	return foundIn(prefix+s, ctx)
}

func checkRequiredTogether(terms any, params map[string]any, ctx []string) string {
	groups, msg := termGroups(terms)
	if msg != "" {
		return msg
	}
	for _, g := range groups {
		fields, err := shared.PyIter(g)
		if err != nil {
			return err.Error()
		}
		some, none := false, false
		for _, f := range fields {
			n, err := countTerms(f, params)
			if err != nil {
				return err.Error()
			}
			some = some || n > 0
			none = none || n == 0
		}
		if some && none {
			return groupMessage("parameters are required together: ", g, ctx)
		}
	}
	return ""
}

func checkRequiredBy(reqs any, params map[string]any, ctx []string) string {
	m, _ := reqs.(map[string]any)
	for _, key := range shared.SortedMapKeys(m) {
		if params[key] == nil {
			continue
		}
		value := m[key]
		if isStrValue(value) {
			value = []any{value}
		}
		required, err := shared.PyIter(value)
		if err != nil {
			return err.Error()
		}
		var missing []any
		for _, r := range required {
			switch r.(type) {
			case []any, map[string]any:
				return fmt.Sprintf("unhashable type: '%s'", shared.PyClass(r))
			}
			if s, ok := shared.IsPyStr(r); !ok || params[s] == nil {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			s, err := shared.PyJoin(", ", missing)
			if err != nil {
				return err.Error()
			}
			return foundIn(fmt.Sprintf("missing parameter(s) required by '%s': %s", key, s), ctx)
		}
	}
	return ""
}

func checkRequiredIf(reqs any, params map[string]any, ctx []string) string {
	entries, _ := reqs.([]any)
	for _, e := range entries {
		req := e.([]any) // checkSpecShape made sure of the entries' shape
		key, _ := shared.IsPyStr(req[0])
		requires, anyOf := "all", len(req) == 4 && shared.PyTruthy(req[3])
		required, _ := shared.PyIter(req[2])
		maxMissing := 0
		if anyOf {
			requires, maxMissing = "any", len(required)
		}
		var missing []any
		if val, given := params[key]; given && shared.PyEqual(val, req[1]) {
			for _, r := range required {
				n, err := countTerms(r, params)
				if err != nil {
					return err.Error()
				}
				if n == 0 {
					missing = append(missing, r)
				}
			}
		}
		if len(missing) > 0 && len(missing) >= maxMissing {
			s, err := shared.PyJoin(", ", missing)
			if err != nil {
				return err.Error()
			}
			return foundIn(fmt.Sprintf("%s is %s but %s of the following are missing: %s", key, shared.PyToStr(req[1]), requires, s), ctx)
		}
	}
	return ""
}
