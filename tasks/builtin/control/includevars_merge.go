package control

import (
	"fmt"
	"math/big"
	"regexp"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// reVarName is a name Env.Eval can look up as a bare variable.
var reVarName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// mergeWithCurrent is include_vars' hash_behaviour: merge: each variable
// loaded is merged, recursively, into the value the variable has for the
// task, as Ansible's combine_vars(old, new, merge=True) does. Both must be
// dicts (a variable not yet defined is None and fails the task). named
// says vars is the dict include_vars' name: made (a dict, not a YAML
// mapping, in the error).
func mergeWithCurrent(env *tasks.Env, vars map[string]any, named bool) error {
	for k, v := range vars {
		var old any
		if env.Eval != nil && reVarName.MatchString(k) {
			if cur, err := env.Eval(k); err == nil {
				old = cur
			}
		}
		om, ook := old.(map[string]any)
		vm, vok := v.(map[string]any)
		if !ook || !vok {
			newClass := pyClassName(v)
			if named {
				newClass = "dict"
			}
			return fmt.Errorf("failed to combine variables, expected dicts but got a '%s' and a '%s': \n%s\n%s",
				pyClassName(old), newClass, shared.PyJSON(old), shared.PyJSON(v))
		}
		merged, err := expr.MergeHash(om, vm, true, "replace")
		if err != nil {
			return err
		}
		vars[k] = merged
	}
	return nil
}

// pyClassName is the Python class of a variable's value as Ansible's
// loader makes it: the YAML types of a vars file for dicts, lists and
// strings.
func pyClassName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case map[string]any:
		return "AnsibleMapping"
	case []any:
		return "AnsibleSequence"
	case string:
		return "AnsibleUnicode"
	case bool:
		return "bool"
	case int, *big.Int:
		return "int"
	case float64:
		return "float"
	}
	return fmt.Sprintf("%T", v)
}
