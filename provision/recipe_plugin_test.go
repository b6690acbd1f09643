package provision_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/sandbox"
)

// addPlugins registers, once per test binary, a filter, a test and a
// lookup written outside tender, for TestAddPluginRecipe.
var addPlugins = sync.OnceFunc(func() {
	expr.AddFilter("shout", func(_ *expr.Env, x any, args []any, _ map[string]any) (any, error) {
		s := strings.ToUpper(expr.Str(x))
		for _, a := range args {
			s += expr.Str(a)
		}
		return s, nil
	})
	expr.AddTest("palindrome", func(x any, _ []any, _ map[string]any) (bool, error) {
		r := []rune(expr.Str(x))
		for i := range len(r) / 2 {
			if r[i] != r[len(r)-1-i] {
				return false, nil
			}
		}
		return true, nil
	})
	expr.AddLookup("reversed_words", func(_ *expr.Env, terms []any, _ map[string]any) ([]any, error) {
		var out []any
		for _, t := range terms {
			w := strings.Fields(expr.Str(t))
			for i := len(w) - 1; i >= 0; i-- {
				out = append(out, w[i])
			}
		}
		return out, nil
	})
})

// TestAddPluginRecipe proves the recipe of docs/ARCHITECTURE.md: a
// filter, a test or a lookup is its function plus one registration line.
// Registered here, outside tender, each works in a playbook by its short
// and its ansible.builtin name, the lookup in lookup(), query() and
// with_<name>; the controller sandbox's lookups rule bounds the lookup as
// it bounds tender's own; a second registration of a name panics.
func TestAddPluginRecipe(t *testing.T) {
	addPlugins()
	out, recap, err := play(t, "h ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - assert:
        that:
          - "'abc' | shout('!') == 'ABC!'"
          - "'xy' | ansible.builtin.shout == 'XY'"
          - "'level' is palindrome and 'tender' is not ansible.builtin.palindrome"
          - "lookup('reversed_words', 'a b c', wantlist=True) == ['c', 'b', 'a']"
          - "query('reversed_words', 'x y') == ['y', 'x']"
    - debug: msg={{ item }}
      with_reversed_words: one two
      register: loop
    - assert:
        that: loop.results | map(attribute='item') | list == ['two', 'one']
`, nil)
	if err != nil || recap.Stats["h"].Failed != 0 || recap.Stats["h"].OK != 3 {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, add := range []func(){
		func() { expr.AddFilter("shout", nil) }, func() { expr.AddFilter("upper", nil) },
		func() { expr.AddTest("palindrome", nil) }, func() { expr.AddLookup("file", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("a name registered twice did not panic")
				}
			}()
			add()
		}()
	}
	out, recap, err = play(t, "h ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg={{ lookup('reversed_words', 'a b') }}
`, func(r *provision.Runner) { r.Sandbox = &sandbox.Policy{Name: "sb", Lookups: []string{"items"}} })
	if err != nil || recap.Stats["h"].Failed != 1 || !strings.Contains(out, "reversed_words") || !strings.Contains(out, "sandbox sb") {
		t.Errorf("the sandbox did not bound the registered lookup: %v\n%s", err, out)
	}
	if !strings.Contains(strings.Join(expr.Lookups(), " "), "reversed_words") {
		t.Errorf("Lookups() lacks the registered lookup: %v", expr.Lookups())
	}
}
