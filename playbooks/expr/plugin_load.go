package expr

import (
	"fmt"
	"regexp"
	"strings"
)

// reFQCR is a fully qualified collection reference as Ansible's plugin
// loader accepts one: three or more dotted words.
var reFQCR = regexp.MustCompile(`^[\p{L}\p{N}_]+(\.[\p{L}\p{N}_]+){2,}$`)

// loadError is the error Ansible's Jinja plugin loader raises for a filter
// or test name it cannot load: `Could not load "NAME": 'WHY'`, where WHY
// is the name itself for a plugin that does not exist, "invalid plugin
// name: FQCN" for a name that is not a collection reference (a bare name
// is taken as ansible.builtin's), or the collection that is not installed
// (tender has only ansible.builtin and ansible.legacy). dynamic is a name
// given as a string (map('f'), select('t')), which Jinja looks up while
// rendering, so that the error is a TemplateSyntaxError, not a parse error
// wrapped by Ansible.
func loadError(name string, dynamic bool) error {
	fq := name
	if !strings.Contains(fq, ".") {
		fq = "ansible.builtin." + fq
	}
	why := name
	if !reFQCR.MatchString(fq) {
		why = "invalid plugin name: " + fq
	} else if parts := strings.SplitN(fq, ".", 3); parts[0] != "ansible" || (parts[1] != "builtin" && parts[1] != "legacy") {
		why = "Invalid plugin FQCN (" + name + "): unable to locate collection " + parts[0] + "." + parts[1]
	}
	if dynamic {
		return errorf("TemplateSyntaxError: Could not load \"%s\": %s", name, Repr(why))
	}
	return &pyError{msg: fmt.Sprintf("Could not load \"%s\": %s", name, Repr(why)), compile: true}
}

// pluginUses are the filters and tests a template or expression names,
// gathered while parsing it: Jinja looks every one up when the compiled
// template starts, so that one that does not load fails the template even
// where it would not be evaluated.
type pluginUses struct {
	first   error       // the first that does not load
	unknown []pluginUse // those tender does not have, which an Env's Plugins may
}

// pluginUse is a filter or test a template names.
type pluginUse struct {
	test bool
	name string // as written, less an ansible.builtin. or ansible.legacy. prefix
}

// add records a use of the filter (or, when test, the test) written name.
// A nil u (a parser without a template) records nothing.
func (u *pluginUses) add(test bool, written string) {
	if u == nil {
		return
	}
	name := pluginName(written)
	kind, known := "filter", false
	if test {
		kind = "test"
		_, known = testOf(name)
	} else {
		known = isFilter(name)
	}
	if !known && refusedReason(kind, name) == "" {
		if u.first == nil {
			u.first = loadError(written, false)
		}
		if len(u.unknown) < 64 {
			u.unknown = append(u.unknown, pluginUse{test: test, name: name})
		}
	}
}

// missing is the first use that does not load, nil when all do; the
// uses an Env's Plugins may supply come with it.
func (u *pluginUses) missing() *missingPlugins {
	if u == nil || u.first == nil {
		return nil
	}
	return &missingPlugins{err: u.first, uses: u.unknown}
}

// missingPlugins are the plugins a template names that tender does not
// have: an error unless the scope's Env supplies every one.
type missingPlugins struct {
	err  error
	uses []pluginUse
}

// check is the error of the missing plugins in scope: nil when its
// Env's Plugins has them all.
func (m *missingPlugins) check(scope Scope, src string) error {
	if m == nil || envOf(scope).provides(m.uses) {
		return nil
	}
	return &Error{Src: src, Col: 1, Msg: m.err.Error(), Err: m.err}
}
