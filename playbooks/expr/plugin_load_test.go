package expr

import (
	"strings"
	"testing"
)

// The messages ansible-playbook 2.14 gives for filter and test names its
// plugin loader cannot load (recorded with the template module): a name
// given as a string to map or select fails while rendering, with Jinja's
// TemplateSyntaxError.
func TestUnknownPluginNames(t *testing.T) {
	for src, want := range map[string]string{
		`{{ [{"failed": false}] | selectattr("failed", "asdf ", true) }}`: `TemplateSyntaxError: Could not load "asdf ": 'invalid plugin name: ansible.builtin.asdf '`,
		`{{ [1] | map("asdf ") | list }}`:                                 `TemplateSyntaxError: Could not load "asdf ": 'invalid plugin name: ansible.builtin.asdf '`,
		`{{ [1] | select("nosuchtest") | list }}`:                         `TemplateSyntaxError: Could not load "nosuchtest": 'nosuchtest'`,
		`{{ [1] | map("nosuchfilter") | list }}`:                          `TemplateSyntaxError: Could not load "nosuchfilter": 'nosuchfilter'`,
		`{{ 1 | nosuchfilter }}`:                                          `Could not load "nosuchfilter": 'nosuchfilter'`,
		`{{ 1 is nosuchtest }}`:                                           `Could not load "nosuchtest": 'nosuchtest'`,
		`{{ 1 | ns.coll.nosuch }}`:                                        `Could not load "ns.coll.nosuch": 'Invalid plugin FQCN (ns.coll.nosuch): unable to locate collection ns.coll'`,
		`{{ 1 is ansible.builtin.nosuch }}`:                               `Could not load "ansible.builtin.nosuch": 'ansible.builtin.nosuch'`,
		`{{ 1 | a.b }}`:                                                   `Could not load "a.b": 'invalid plugin name: a.b'`,
	} {
		_, err := Render(src, NewVars())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %s", src, err, want)
		}
		if !strings.HasPrefix(want, "Template") && err != nil && strings.Contains(err.Error(), "TemplateSyntaxError") {
			t.Errorf("%s: %v is not a rendering error", src, err)
		}
	}
}
