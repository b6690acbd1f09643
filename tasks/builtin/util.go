package builtin

import (
	"crypto/md5"
	"encoding/hex"
)

func boolFlag(b bool) string {
	if b {
		return "1"
	}
	return ""
}

func md5hex(b []byte) string { s := md5.Sum(b); return hex.EncodeToString(s[:]) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func containsStr(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// maskedValue stands for a secret in a result, as Ansible's no_log does.
const maskedValue = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"

// truthy is Python's truth value of an evaluated condition.
func truthy(v any) bool {
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
