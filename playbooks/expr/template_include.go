package expr

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// {% include %}: render another template file in place.

// maxNestedTemplates bounds how deeply templates may include each other
// (and render each other through the template lookup), so that a template
// that includes itself fails instead of recursing without end.
const maxNestedTemplates = 50

// includeNode is {% include name [ignore missing] [with|without context] %}.
type includeNode struct {
	at            int
	name          node
	ignoreMissing bool
	noContext     bool
}

// includeTag parses what follows "include" in a tag, as Jinja2 does: an
// expression naming the template (or a list of names, the first found is
// used), then optionally "ignore missing", then "with context" (the
// default) or "without context".
func (p *parser) includeTag(it *item) error {
	var err error
	if it.expr, err = p.parseExpr(); err != nil {
		return err
	}
	next := func(word string) (bool, error) {
		nt, err := p.lookahead()
		if err != nil {
			return false, err
		}
		return nt.kind == tName && nt.text == word, nil
	}
	if p.isName("ignore") {
		ok, err := next("missing")
		if err != nil {
			return err
		}
		if ok {
			it.ignoreMissing = true
			if err := p.advance(); err != nil {
				return err
			}
			if err := p.advance(); err != nil {
				return err
			}
		}
	}
	if p.isName("with") || p.isName("without") {
		ok, err := next("context")
		if err != nil {
			return err
		}
		if ok {
			it.noContext = p.tok.text == "without"
			if err := p.advance(); err != nil {
				return err
			}
			return p.advance()
		}
	}
	return nil
}

// includeDirs is where {% include %} looks for a template name: the
// directories the template was given (the template lookup's: its own
// directory, then DIR/templates and DIR of each search path), else for a
// template file DIR/templates and DIR of each search path, else (a
// playbook string) each search path.
func (ev *evaluator) includeDirs(t *Template) []string {
	if ev.dirs != nil {
		return ev.dirs
	}
	env := envOf(ev.scope)
	if t == nil || !t.file {
		return env.searchPaths()
	}
	var dirs []string
	if t.path != "" {
		dirs = append(dirs, filepath.Dir(t.path))
	}
	return append(dirs, templateDirs(env)...)
}

// findTemplate resolves a template name as Jinja's FileSystemLoader does:
// the name is split on "/", empty and "." parts are dropped, and a ".."
// part never matches (a name cannot leave the directories searched); the
// first directory holding the file wins.
func findTemplate(env *Env, dirs []string, name string) (string, bool, error) {
	var parts []string
	for _, part := range strings.Split(name, "/") {
		switch part {
		case "..":
			return "", false, nil
		case "", ".":
			continue
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "", false, nil
	}
	for _, d := range dirs {
		p := filepath.Join(append([]string{d}, parts...)...)
		if err := env.checkRead(p); err != nil {
			return "", false, err
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true, nil
		}
	}
	return "", false, nil
}

// include renders an {% include %} into o.
func (ev *evaluator) include(o *output, n *includeNode, frame *local) error {
	tm, path, dirs, err := ev.findTemplateFile(n.name, n.at, n.ignoreMissing)
	if err != nil || tm == nil {
		return err
	}
	var scope Scope = withoutLoop{frame}
	if n.noContext {
		scope = envScope{envOf(frame)}
	}
	if _, err := ev.renderNested(o, tm, scope, dirs); err != nil {
		return fmt.Errorf("in included template %s: %w", path, err)
	}
	return nil
}

// findTemplateFile evaluates the name (or list of names) of a template
// to include or import, finds and loads the first that exists; with
// ignoreMissing none found is a nil template. dirs is where the template's
// own includes look.
func (ev *evaluator) findTemplateFile(name node, at int, ignoreMissing bool) (*Template, string, []string, error) {
	v, err := ev.value(name)
	if err != nil {
		return nil, "", nil, err
	}
	var names []string
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			s, ok := text(x)
			if !ok {
				return nil, "", nil, ev.wrap(name, errorf("a template name must be a string, not %s", typeName(x)))
			}
			names = append(names, s)
		}
	default:
		s, ok := text(v)
		if !ok {
			return nil, "", nil, ev.wrap(name, errorf("a template name must be a string, not %s", typeName(v)))
		}
		names = []string{s}
	}
	dirs := ev.includeDirs(ev.top)
	if err := ev.step(len(names) * len(dirs)); err != nil {
		return nil, "", nil, err
	}
	path := ""
	for _, name := range names {
		p, ok, err := findTemplate(envOf(ev.scope), dirs, name)
		if err != nil {
			return nil, "", nil, &Error{Src: ev.src, Col: at + 1, Msg: err.Error(), Err: err}
		}
		if ok {
			path = p
			break
		}
	}
	if path == "" {
		if ignoreMissing {
			return nil, "", nil, nil
		}
		msg := fmt.Sprintf("template '%s' not found", strings.Join(names, ""))
		if _, isList := v.([]any); isList {
			msg = "none of the templates given were found: " + strings.Join(names, ", ")
		}
		return nil, "", nil, &Error{Src: ev.src, Col: at + 1, Msg: fmt.Sprintf("%s (searched %s)", msg, strings.Join(dirs, ", "))}
	}
	tm, err := ev.loadTemplate(path, false)
	if err != nil {
		return nil, "", nil, &Error{Src: ev.src, Col: at + 1, Msg: err.Error(), Err: err}
	}
	return tm, path, dirs, nil
}

// renderNested renders t (an included or imported template, or one the
// template lookup renders) into o, in a new frame over scope, sharing ev's
// budget and concat; dirs is where its own includes look. It returns the
// template's top-level frame (what an import exports).
func (ev *evaluator) renderNested(o *output, t *Template, scope Scope, dirs []string) (*local, error) {
	ev.st.nested++
	defer func() { ev.st.nested-- }()
	if ev.st.nested > maxNestedTemplates {
		return nil, &Error{Src: ev.src, Col: 1, Msg: fmt.Sprintf("templates nested more than %d deep (a template including itself?)", maxNestedTemplates)}
	}
	child := ev.child(t, scope, dirs)
	frame := &local{parent: scope, vars: map[string]any{}}
	if err := child.resolveFirst(frame, t.names); err != nil {
		return frame, err
	}
	return frame, child.renderBody(o, t.body, frame)
}

// child is an evaluator for template t (its source for error columns, its
// directories for includes) sharing ev's budget and settings.
func (ev *evaluator) child(t *Template, scope Scope, dirs []string) *evaluator {
	return &evaluator{scope: scope, src: t.code, depth: ev.depth, st: ev.st, dirs: dirs, top: t, delims: ev.delims, convert: ev.convert, native: ev.native}
}

// withoutLoop is the scope an included template sees "with context": the
// includer's variables, {% for %} targets and {% set %} names, but not the
// `loop` of an enclosing {% for %}, which Jinja does not pass on.
type withoutLoop struct{ frame *local }

func (w withoutLoop) Lookup(name string) (any, bool, error) {
	v, ok, err := w.lookupNative(name, nil)
	return plain(v), ok, err
}

func (w withoutLoop) lookupNative(name string, b *budget) (any, bool, error) {
	if name != "loop" {
		return w.frame.lookupNative(name, b)
	}
	var s Scope = w.frame
	for {
		l, ok := s.(*local)
		if !ok {
			return lookupIn(s, name, b)
		}
		s = l.parent
	}
}

func (w withoutLoop) LookupEnv() *Env { return envOf(w.frame) }
