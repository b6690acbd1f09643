package shared

import (
	"crypto/md5"
	"encoding/hex"

	"github.com/tender-sh/tender/tasks"
)

// BoolFlag is b as a shell flag: "1" or "".
func BoolFlag(b bool) string {
	if b {
		return "1"
	}
	return ""
}

// Md5hex returns the hex MD5 of b.
func Md5hex(b []byte) string { s := md5.Sum(b); return hex.EncodeToString(s[:]) }

// OrDefault returns s, or def when s is empty.
func OrDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// MaskedValue stands for a secret in a result, as Ansible's no_log does.
const MaskedValue = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"

// Truthy is Python's truth value of an evaluated condition.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// EndWith ends a module's Run at a step that stopped it: with the result
// the step gave (a failure or a skip), else with the step's error.
func EndWith(r *tasks.Result, err error) (tasks.Result, error) {
	if r != nil {
		return *r, nil
	}
	return tasks.Result{}, err
}
