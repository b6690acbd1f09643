package provision

import (
	"fmt"
	"strings"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks/expr"
)

// hostPatterns validates a play's rendered hosts as Ansible validates its
// list-of-strings field: a single value is a list of one, every item must
// be a string ("{{ n }}" with n an integer fails, as does "{{ '12' }}"
// under jinja2_native) and not blank. The patterns are joined by commas,
// as a YAML list of them is.
func hostPatterns(v any) (string, error) {
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	parts := make([]string, len(items))
	for i, x := range items {
		var s string
		switch t := x.(type) {
		case string:
			s = t
		case yaml11.Unsafe:
			s = string(t)
		default:
			return "", fmt.Errorf("the field 'hosts' should be a list of (<class 'str'>,), but the item '%s' is a <class '%s'>", expr.Str(x), expr.TypeName(x))
		}
		if strings.TrimSpace(s) == "" {
			return "", fmt.Errorf("the field 'hosts' is required, and cannot have empty values")
		}
		parts[i] = s
	}
	return strings.Join(parts, ","), nil
}
