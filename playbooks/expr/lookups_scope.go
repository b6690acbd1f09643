package expr

import (
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/osproc"
	"github.com/tender-sh/tender/internal/pyre"
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
// the variables Ansible adds (template_path, template_mtime, …) and the
// dict template_vars= on top of it, as Templar.template does: with
// convert_data (the default) text that looks like a list or dict becomes
// one, without it the result is text no later template converts.
// jinja2_native=true renders with the native concat when the run's
// jinja2_native setting is on (Env.Native) and has no effect otherwise;
// with the setting on and the option off, the result is text no later
// template converts, as without convert_data. {% include %} inside looks in the template's own
// directory first, then in DIR/templates and DIR of each search path.
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
	convert, err := boolOption(opts, "convert_data", true)
	if err != nil {
		return nil, err
	}
	native, err := boolOption(opts, "jinja2_native", false)
	if err != nil {
		return nil, err
	}
	native = native && env.Native
	d, err := templateDelims(opts)
	if err != nil {
		return nil, err
	}
	lev := *ev
	lev.delims, lev.convert, lev.native = d, convert, native
	out := []any{}
	for _, t := range terms {
		term := Str(t)
		p, ok, err := env.findIn("templates", term)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errorf("the template file %s could not be found for the lookup", term)
		}
		tm, err := lev.loadTemplate(p, true)
		if err != nil {
			return nil, err
		}
		vars := templateVars(term, p)
		for k, v := range extra {
			vars[k] = v
		}
		res, err := lev.renderLookupTemplate(tm, &local{parent: ev.scope, vars: vars}, append([]string{filepath.Dir(p)}, templateDirs(env)...))
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", p, err)
		}
		if !convert || env.Native && !native {
			res = nativeText(Str(res))
		}
		out = append(out, res)
	}
	return out, nil
}

// renderLookupTemplate is Templar.template for the template lookup's
// file: text without markup is returned as it is, a single variable may
// pass its value through, the rest is rendered and joined by ev's concat.
func (ev *evaluator) renderLookupTemplate(tm *Template, scope Scope, dirs []string) (any, error) {
	d := ev.delims
	if d == nil {
		d = defaultDelims
	}
	if !strings.Contains(tm.src, d.varStart) && !strings.Contains(tm.src, d.blockStart) && !strings.Contains(tm.src, d.commentStart) {
		return tm.src, nil
	}
	if v, ok, err := tm.singleVar(scope); ok || err != nil {
		return v, err
	}
	if tm.unrendered(scope) {
		return tm.src, nil
	}
	o := ev.newOutput()
	if _, err := ev.renderNested(o, tm, scope, dirs); err != nil {
		return nil, err
	}
	v, err := ev.concat(o)
	if err != nil {
		return nil, err
	}
	return keepNewlines(tm.src, v), nil
}

// TemplateVars are the variables Ansible adds for a template file it
// renders (generate_ansible_template_vars): template_host, template_path
// (src as the task gives it), template_fullpath (path, the file found),
// template_mtime, template_uid, template_run_date, template_destpath
// (dest, nil for the template lookup) and ansible_managed.
func TemplateVars(src, path string, dest any) map[string]any {
	vars := templateVars(src, path)
	vars["template_destpath"] = dest
	return vars
}

// WithVars is scope with vars over it, as a template's own variables.
func WithVars(scope Scope, vars map[string]any) Scope { return &local{parent: scope, vars: vars} }

// templateVars are TemplateVars for the template lookup (no destination).
func templateVars(term, path string) map[string]any {
	host, _ := os.Hostname()
	vars := map[string]any{"template_host": host, "template_path": term, "template_fullpath": path,
		"template_destpath": nil, "template_run_date": naive(time.Now()), "ansible_managed": "Ansible managed"}
	if abs, err := filepath.Abs(path); err == nil {
		vars["template_fullpath"] = abs
	}
	if st, err := os.Stat(path); err == nil {
		vars["template_mtime"] = naive(st.ModTime())
		if uid, ok := osproc.Owner(st); ok {
			vars["template_uid"] = uid
			if u, err := user.LookupId(uid); err == nil {
				vars["template_uid"] = u.Username
			}
		}
	}
	return vars
}

// boolOption reads a boolean lookup option as Ansible's config does
// (boolean(value, strict=False)).
func boolOption(opts map[string]any, name string, def bool) (bool, error) {
	v, ok := opts[name]
	if !ok || v == nil {
		return def, nil
	}
	switch b := v.(type) {
	case bool:
		return b, nil
	case int, *big.Int, float64:
		return Equal(b, 1), nil
	}
	// Ansible's config reads booleans leniently: anything else is false
	s, ok := text(v)
	return ok && boolean.True(s), nil
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
// evaluation; reading it counts against the evaluation's work. decrypt
// says a vault-encrypted file is decrypted (the template lookup reads it
// as Ansible's loader does; {% include %} does not).
func (ev *evaluator) loadTemplate(path string, decrypt bool) (*Template, error) {
	d := ev.delims
	if d == nil {
		d = defaultDelims
	}
	key := fmt.Sprintf("%s\x00%v\x00%v", path, *d, decrypt)
	if t, ok := ev.st.included[key]; ok {
		return t, ev.step(1)
	}
	read := readFile
	if decrypt {
		read = openFile
	}
	b, err := read(envOf(ev.scope), path)
	if err != nil {
		return nil, err
	}
	if err := ev.step(1 + len(b)/16); err != nil {
		return nil, err
	}
	t, err := parseTemplateWith(string(b), false, d)
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

// varnamesLookup is varnames: the names of the variables that a term (a
// regular expression) matches anywhere, in the order of the variables
// (DIFFERENCES.md item 10).
func varnamesLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	k := keyedBelow(ev.scope)
	if k == nil {
		return nil, ansibleErrorf("No variables available to search")
	}
	names := k.Keys()
	out := []any{}
	for _, t := range terms {
		pat, ok := text(t)
		if !ok {
			return nil, ansibleErrorf("Invalid setting identifier, \"%s\" is not a string, it is a %s", Str(t), pyClass(t))
		}
		re, err := pyre.Compile(pat, pyre.Options{Timeout: ev.st.b.searchTimeout()})
		if err != nil {
			// Python's re.error in its own words.
			msg := err.Error()
			var se *pyre.SyntaxError
			if errors.As(err, &se) {
				msg = se.Python()
			}
			return nil, ansibleErrorf("Unable to use \"%s\" as a search parameter: %s", pat, msg)
		}
		for _, n := range names {
			m, err := search(ev.st.b, re, n, "search")
			if err != nil {
				return nil, err
			}
			if m != nil {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// keyedBelow finds the variables under template-local frames.
func keyedBelow(s Scope) Keyed {
	for {
		switch t := s.(type) {
		case *local:
			s = t.parent
		case withoutLoop:
			s = t.frame
		case *resolving:
			return t.v
		case Keyed:
			return t
		default:
			return nil
		}
	}
}
