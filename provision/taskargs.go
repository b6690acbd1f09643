package provision

import (
	"maps"

	"github.com/tender-sh/tender/playbooks"
)

// shownArgs are t's arguments for Event.Args: a copy of them as written,
// or nil when any level sets no_log (whatever its value, which may be a
// template) or an argument holds anything but plain YAML values.
func shownArgs(t *playbooks.Task) map[string]any {
	if len(t.Args) == 0 {
		return nil
	}
	for _, l := range t.Levels() {
		if l.Keywords != nil && l.NoLog.Set {
			return nil
		}
	}
	for _, v := range t.Args {
		if !plainValue(v) {
			return nil
		}
	}
	return maps.Clone(t.Args)
}

// plainValue reports whether v is made only of strings, numbers, booleans,
// nulls, lists and string-keyed maps.
func plainValue(v any) bool {
	switch x := v.(type) {
	case nil, string, bool, int, int64, uint64, float64:
		return true
	case []any:
		for _, e := range x {
			if !plainValue(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !plainValue(e) {
				return false
			}
		}
		return true
	}
	return false
}
