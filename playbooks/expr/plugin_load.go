package expr

import (
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
	prefix := ""
	if dynamic {
		prefix = "TemplateSyntaxError: "
	}
	return errorf("%sCould not load \"%s\": %s", prefix, name, Repr(why))
}
