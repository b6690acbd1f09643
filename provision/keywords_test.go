package provision

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// TestBadBooleanKeyword: a keyword that is not a boolean fails with
// Ansible's message (recorded from ansible-core 2.14 in
// testdata/engine/runtime, where the engine case elides it), naming the
// field and the value.
func TestBadBooleanKeyword(t *testing.T) {
	for _, c := range []struct {
		b    playbooks.Bool
		want string
	}{
		{playbooks.Bool{Set: true, Bad: "yes."}, "the field 'diff' has an invalid value (yes.), and could not be converted to an bool.The error was: The value 'yes.' is not a valid boolean.  Valid booleans include: "},
		{playbooks.Bool{Set: true, Bad: []any{1}}, "the field 'diff' has an invalid value ([1]), and could not be converted to an bool.The error was: unhashable type: 'list'. unhashable type: 'list'"},
		{playbooks.Bool{Set: true, Expr: "{{ 'maybe' }}"}, "the field 'diff' has an invalid value ({{ 'maybe' }}), and could not be converted to an bool.The error was: The value 'maybe' is not a valid boolean."},
	} {
		_, err := boolValue(c.b, expr.NewVars(nil))
		if err == nil {
			t.Fatalf("%+v: no error", c.b)
		}
		if got := fieldError(&playbooks.Task{}, "diff", c.b, err).Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v:\n got %s\nwant %s…", c.b, got, c.want)
		}
	}
	if v, err := boolValue(playbooks.Bool{Set: true, Expr: "{{ 'yes' }}"}, expr.NewVars(nil)); err != nil || !v {
		t.Errorf("a template that renders yes: %v %v", v, err)
	}
}
