package expr

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// The lookups that read the scope: vars (variables named at run time) and
// template (a template file rendered in this scope).

// varsLookup returns the value of each variable named by a term, looked up
// among the variables, then in hostvars[inventory_hostname]. A missing or
// undefined one is default= when given (and not None), else an undefined
// error, which errors='ignore' does not silence.
func varsLookup(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
	def, hasDefault := opts["default"]
	hasDefault = hasDefault && def != nil
	out := []any{}
	for _, t := range terms {
		name, ok := text(t)
		if !ok {
			return nil, errorf("Invalid setting identifier, \"%s\" is not a string, its a <class '%s'>", Str(t), typeName(t))
		}
		v, found, err := ev.scope.Lookup(name)
		var ue *UndefinedError
		if err != nil && !errors.As(err, &ue) {
			return nil, err
		}
		if err == nil && !found {
			v, found, err = hostVar(ev.scope, name)
			if err != nil && !errors.As(err, &ue) {
				return nil, err
			}
		}
		if err == nil && !found {
			err = &UndefinedError{Name: name, Msg: "No variable found with this name: " + name}
		}
		if err != nil {
			if hasDefault {
				out = append(out, def)
				continue
			}
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// hostVar looks name up in hostvars[inventory_hostname].
func hostVar(scope Scope, name string) (any, bool, error) {
	hv, ok, err := scope.Lookup("hostvars")
	if err != nil || !ok {
		return nil, false, nil
	}
	host, ok, err := scope.Lookup("inventory_hostname")
	if err != nil || !ok {
		return nil, false, nil
	}
	h, err := getItem(hv, host, "hostvars")
	if err != nil {
		return nil, false, nil
	}
	v, err := getItem(h, name, name)
	if _, undef := v.(*undefined); undef || err != nil {
		return nil, false, nil
	}
	return v, true, nil
}

// templateLookup renders each template file named by a term (found in
// DIR/templates/NAME or DIR/NAME of each search path) in this scope, with
// the dict template_vars= on top of it. {% include %} inside looks in the
// template's own directory first, then in DIR/templates and DIR of each
// search path.
func templateLookup(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
	env := envOf(ev.scope)
	extra := map[string]any{}
	if tv, ok := opts["template_vars"]; ok && tv != nil {
		m, ok := tv.(map[string]any)
		if !ok {
			return nil, fatalf("Invalid type for configuration option template_vars: a dict is required, got %s", typeName(tv))
		}
		extra = m
	}
	d, err := templateDelims(opts)
	if err != nil {
		return nil, err
	}
	saved := ev.delims
	ev.delims = d
	defer func() { ev.delims = saved }()
	out := []any{}
	for _, t := range terms {
		term := Str(t)
		p, ok := env.findIn("templates", term)
		if !ok {
			return nil, errorf("the template file %s could not be found for the lookup", term)
		}
		tm, err := ev.loadTemplate(p, false)
		if err != nil {
			return nil, err
		}
		scope := ev.scope
		if len(extra) > 0 {
			scope = &local{parent: scope, vars: extra}
		}
		var b strings.Builder
		err = ev.renderNested(&b, tm, scope, append([]string{filepath.Dir(p)}, templateDirs(env)...))
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", p, err)
		}
		out = append(out, keepTrailingNewlines(tm.src, b.String()))
	}
	return out, nil
}

// templateDelims are the markers the template lookup's options set
// (variable_start_string, variable_end_string, comment_start_string,
// comment_end_string), over Jinja's.
func templateDelims(opts map[string]any) (*delims, error) {
	d := *defaultDelims
	for name, dst := range map[string]*string{"variable_start_string": &d.varStart, "variable_end_string": &d.varEnd,
		"comment_start_string": &d.commentStart, "comment_end_string": &d.commentEnd} {
		v, ok := opts[name]
		if !ok || v == nil {
			continue
		}
		s, ok := text(v)
		if !ok || s == "" {
			return nil, fatalf("Invalid type for configuration option %s: a non-empty string is required, got %s", name, Repr(v))
		}
		*dst = s
	}
	if d == *defaultDelims {
		return nil, nil
	}
	return &d, nil
}

// loadTemplate reads and parses the template file at path, once per
// evaluation; reading it counts against the evaluation's work. An
// included template loses one trailing newline, as Jinja's loader drops it
// (Ansible keeps it only on the template it renders itself).
func (ev *evaluator) loadTemplate(path string, included bool) (*Template, error) {
	d := ev.delims
	if d == nil {
		d = defaultDelims
	}
	key := fmt.Sprintf("%s\x00%v\x00%v", path, included, *d)
	if t, ok := ev.st.included[key]; ok {
		return t, ev.step(1)
	}
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if err := ev.step(1 + len(b)/16); err != nil {
		return nil, err
	}
	src := string(b)
	if included {
		if strings.HasSuffix(src, "\r\n") {
			src = src[:len(src)-2]
		} else if strings.HasSuffix(src, "\n") || strings.HasSuffix(src, "\r") {
			src = src[:len(src)-1]
		}
	}
	t, err := parseTemplateWith(src, false, d)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", path, err)
	}
	if ev.st.included == nil {
		ev.st.included = map[string]*Template{}
	}
	ev.st.included[key] = t
	return t, nil
}

// templateDirs is where templates are looked for by default: DIR/templates
// and DIR for each search path of env.
func templateDirs(env *Env) []string {
	var out []string
	for _, d := range env.searchPaths() {
		out = append(out, filepath.Join(d, "templates"), d)
	}
	return out
}
