package tasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/suggest"
	"github.com/tender-sh/tender/internal/yaml11"
)

// Kind is the type a module parameter is converted to, as Ansible's
// argument_spec "type".
type Kind int

// The parameter kinds. Str is the zero value, as Ansible's default type.
const (
	Str   Kind = iota // a string; numbers and booleans are converted to text
	Bool              // a boolean; yes/no/true/false/on/off/y/n/t/f/1/0 as Ansible
	Int               // an integer; numeric strings are converted
	List              // a list; a comma-separated string is split, a scalar wrapped
	Dict              // a mapping; a JSON object or "k=v k2=v2" string is parsed
	Path              // a string whose leading ~ is left for the shell to expand
	Raw               // any value, unconverted
	Float             // a float; numeric strings are converted
)

var kindNames = [...]string{"str", "bool", "int", "list", "dict", "path", "raw", "float"}

// String names the kind as Ansible's argument_spec types do.
func (k Kind) String() string { return kindNames[k] }

// Param declares one module parameter.
type Param struct {
	Name     string
	Kind     Kind
	Aliases  []string
	Default  any      // used when the parameter is not given; nil means none
	Required bool     // missing is an error
	Choices  []string // allowed values (compared as text), when not empty
	Elements Kind     // the kind of each element of a List (Str by default)
	// Marked keeps the marks of the value (see marks.go): the module
	// evaluates it through Env.Condition or Env.Template. Any other
	// parameter is data, and Decode gives it without marks.
	Marked bool
}

// Spec is a module's argument specification: what Ansible modules declare as
// argument_spec, mutually_exclusive and required_one_of.
type Spec struct {
	Module string // the module's name: messages use it, and a Def without a Name takes it
	Params []Param
	// MutuallyExclusive lists groups of parameters of which at most one
	// may be given.
	MutuallyExclusive [][]string
	// RequiredOneOf lists groups of which at least one must be given.
	RequiredOneOf [][]string
	// FreeForm accepts "_raw_params" (the free-form text of shell, command,
	// raw, script) as a string.
	FreeForm bool
	// Other says what keys beyond Params mean, for modules that take any
	// (set_fact's facts, add_host's host variables). Documentation only:
	// Decode does not read it.
	Other string
	// Refused are options Ansible's module takes that tender does not,
	// each with the reason: Decode refuses one with its reason, and tender
	// doc lists them.
	Refused map[string]string
	// ValidArgs marks an action plugin's arguments (its _VALID_ARGS): an
	// option it does not take fails before anything else is checked,
	// with "Invalid options for ACTION: NAME".
	ValidArgs bool
}

// Described is a module that can show its Spec: tender doc prints it, so
// an operator sees the parameters a module takes before writing a task.
type Described interface {
	Spec() *Spec
}

// Values are decoded arguments, by canonical parameter name. Parameters
// neither given nor defaulted are absent.
type Values map[string]any

// Decode checks args against the spec strictly and converts them: aliases
// map to their canonical names, values are converted to their kinds,
// defaults fill absent parameters. Errors read as Ansible's: "Unsupported
// parameters for (copy) module: foo. Supported parameters include: ...",
// "missing required arguments: path", "value of state must be one of: ...",
// "parameters are mutually exclusive: content|src". When several checks
// fail, the error is the one Ansible's validator reports first: mutually
// exclusive parameters, then missing ones, then each parameter's type in
// the spec's order, its choices, one-of groups, and last the unsupported
// parameters.
func (s *Spec) Decode(args Args) (Values, error) { return s.DecodeFor("", args) }

// DecodeFor is Decode for a task that names the module action (as
// written: ansible.builtin.debug), which a ValidArgs refusal names.
func (s *Spec) DecodeFor(action string, args Args) (Values, error) {
	byName := map[string]*Param{}
	for i := range s.Params {
		p := &s.Params[i]
		byName[p.Name] = p
		for _, a := range p.Aliases {
			byName[a] = p
		}
	}
	out := Values{}
	given := map[string]any{}      // by canonical name, not yet converted
	givenAs := map[string]string{} // the name each was given by
	var unknown []string
	for k, v := range args {
		if k == "_raw_params" && s.FreeForm {
			if v != nil {
				out[k] = fmt.Sprint(v)
			}
			continue
		}
		p, ok := byName[k]
		if !ok {
			if why, refused := s.Refused[k]; refused {
				return nil, &ArgError{Module: s.Module, Unknown: []string{k}, Msg: fmt.Sprintf("Unsupported parameters for (%s) module: %s. tender does not implement it: %s", s.Module, k, why)}
			}
			unknown = append(unknown, k)
			continue
		}
		if _, dup := given[p.Name]; dup && k != p.Name {
			// Ansible keeps the last one given; both forms given is rare.
			if _, canonicalGiven := args[p.Name]; canonicalGiven {
				continue
			}
		}
		if v == nil {
			continue
		}
		given[p.Name], givenAs[p.Name] = v, k
	}
	if s.ValidArgs && len(unknown) > 0 {
		if action == "" {
			action = s.Module
		}
		sort.Strings(unknown)
		return nil, &ArgError{Module: s.Module, Unknown: unknown, Msg: fmt.Sprintf("Invalid options for %s: %s", action, strings.Join(unknown, ","))}
	}
	for _, grp := range s.MutuallyExclusive {
		n := 0
		for _, name := range grp {
			if _, ok := given[name]; ok {
				n++
			}
		}
		if n > 1 {
			return nil, fmt.Errorf("parameters are mutually exclusive: %s", strings.Join(grp, "|"))
		}
	}
	var missing []string
	for _, p := range s.Params {
		if _, ok := given[p.Name]; ok {
			continue
		}
		if p.Required {
			missing = append(missing, p.Name)
		} else if p.Default != nil {
			out[p.Name] = p.Default
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("missing required arguments: %s", strings.Join(missing, ", "))
	}
	for _, p := range s.Params {
		v, ok := given[p.Name]
		if !ok {
			continue
		}
		if !p.Marked {
			v = Plain(v)
		}
		cv, err := convert(p.Kind, p.Elements, v)
		if ee, ok := err.(elemError); ok {
			return nil, fmt.Errorf("Elements value for option '%s' is of type %s and we were unable to convert to %s: %v", givenAs[p.Name], ee.typ, ee.kind, ee.err)
		}
		if err != nil {
			return nil, fmt.Errorf("argument '%s' is of type %s and we were unable to convert to %s: %v", givenAs[p.Name], pyType(v), p.Kind, err)
		}
		out[p.Name] = cv
	}
	for _, p := range s.Params {
		v, ok := out[p.Name]
		if !ok || len(p.Choices) == 0 {
			continue
		}
		if !choiceOK(p.Choices, v) {
			return nil, fmt.Errorf("value of %s must be one of: %s, got: %v", p.Name, strings.Join(p.Choices, ", "), v)
		}
	}
	for _, grp := range s.RequiredOneOf {
		found := false
		for _, name := range grp {
			if _, ok := out[name]; ok {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("one of the following is required: %s", strings.Join(grp, ", "))
		}
	}
	if len(unknown) > 0 {
		return nil, s.unsupported(unknown)
	}
	return out, nil
}

func choiceOK(choices []string, v any) bool {
	vs := []any{v}
	if l, ok := v.([]any); ok {
		vs = l
	}
	for _, x := range vs {
		found := false
		for _, c := range choices {
			if c == fmt.Sprint(x) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// unsupported builds Ansible's message for unknown parameters, followed by
// the nearest known name for the first one.
func (s *Spec) unsupported(unknown []string) error {
	sort.Strings(unknown)
	var names, aliases []string
	for _, p := range s.Params {
		names = append(names, p.Name)
		aliases = append(aliases, p.Aliases...)
	}
	sort.Strings(names)
	sort.Strings(aliases)
	supported := strings.Join(names, ", ")
	if len(aliases) > 0 {
		supported += " (" + strings.Join(aliases, ", ") + ")"
	}
	msg := fmt.Sprintf("Unsupported parameters for (%s) module: %s. Supported parameters include: %s.",
		s.Module, strings.Join(unknown, ", "), supported)
	if near := nearest(unknown[0], append(names, aliases...)); near != "" {
		msg += fmt.Sprintf(" Did you mean %q instead of %q?", near, unknown[0])
	}
	return &ArgError{Module: s.Module, Unknown: unknown, Msg: msg}
}

// ArgError is an unsupported-parameters error; Unknown lists the names.
type ArgError struct {
	Module  string
	Unknown []string
	Msg     string
}

// Error returns Ansible's message with the nearest-name hint.
func (e *ArgError) Error() string { return e.Msg }

// AsWritten names the module of an unsupported-parameters error as the
// task wrote it (action: file, ansible.builtin.file,
// community.general.make), as Ansible's message does; other errors are
// returned as they are.
func AsWritten(err error, action string) error {
	var ae *ArgError
	if action == "" || !errors.As(err, &ae) || ae.Module == action {
		return err
	}
	c := *ae
	c.Msg = strings.Replace(c.Msg, "("+ae.Module+") module", "("+action+") module", 1)
	c.Module = action
	return &c
}

// nearest returns the candidate closest to name by edit distance, or ""
// when none is close enough to be a likely typo.
func nearest(name string, candidates []string) string {
	best, bestD := "", math.MaxInt
	for _, c := range candidates {
		if d := suggest.Distance(strings.ToLower(name), c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD > max(2, len(name)/2) {
		return ""
	}
	return best
}

// pyType names v's type as Python would, for Ansible-like messages.
func pyType(v any) string {
	switch v.(type) {
	case string, yaml11.Unsafe:
		return "<class 'str'>"
	case bool:
		return "<class 'bool'>"
	case int, int64, int32, uint64, uint, *big.Int:
		return "<class 'int'>"
	case float64, float32:
		return "<class 'float'>"
	case []any, []string:
		return "<class 'list'>"
	case map[string]any:
		return "<class 'dict'>"
	}
	return fmt.Sprintf("<class '%T'>", v)
}

// ParseBool converts v as Ansible's boolean(): true, yes, on, y, t, 1 and
// false, no, off, n, f, 0 (any case), and the numbers 1 and 0.
func ParseBool(v any) (bool, error) {
	switch x := v.(type) {
	case yaml11.Unsafe:
		return ParseBool(string(x))
	case bool:
		return x, nil
	case int:
		if x == 0 || x == 1 {
			return x == 1, nil
		}
	case int64:
		if x == 0 || x == 1 {
			return x == 1, nil
		}
	case float64:
		if x == 0 || x == 1 {
			return x == 1, nil
		}
	case string:
		if b, ok := boolean.Word(x); ok {
			return b, nil
		}
	}
	// Python's set of them holds 1 once for 1, 1.0 and True (0 likewise).
	return false, fmt.Errorf("The value '%v' is not a valid boolean.  Valid booleans include: %s", v, boolean.Valid)
}

// ToText renders a scalar as Ansible renders it into a string parameter
// (True/False for booleans, as Python's str()).
func ToText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case yaml11.Unsafe:
		return string(x)
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		return pyfmt.Repr(x) // Python's str of a float: 1.0, 1e+20, inf
	case []any, map[string]any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}
