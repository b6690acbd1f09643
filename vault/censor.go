package vault

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Mask is what Censor writes in place of a secret.
const Mask = "********"

// MinSecret is the shortest value Censor blanks. Blanking every "yes",
// "80" or "on" a vault decrypted would mangle output (task names, paths,
// counts) and tell a reader the secret anyway; values this short are not
// secrets worth the name.
const MinSecret = 4

// MinLine is the shortest line of a multi-line plaintext that Censor
// blanks on its own, besides the plaintext whole: shorter lines of a
// vaulted file ("fi", "}", "done") are syntax, not secrets.
const MinLine = 8

// Censor collects the plaintexts a run decrypted and blanks them in text
// it is given. A nil *Censor censors nothing. It is safe for concurrent
// use.
type Censor struct {
	mu     sync.RWMutex
	values map[string]bool
	sorted []string // longest first, so a secret holding another is blanked whole
}

// Add learns one secret value; one shorter than MinSecret is ignored.
func (c *Censor) Add(s string) {
	if c == nil {
		return
	}
	s = strings.TrimSpace(s)
	if len(s) < MinSecret {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.values[s] {
		return
	}
	if c.values == nil {
		c.values = map[string]bool{}
	}
	c.values[s] = true
	c.sorted = append(c.sorted, s)
	sort.SliceStable(c.sorted, func(i, j int) bool { return len(c.sorted[i]) > len(c.sorted[j]) })
}

// AddText learns a decrypted text: the text whole, when it has several
// lines each line of at least MinLine bytes, and, for a line that
// reads as a YAML "key: value" or "- value" (a vaulted vars file), the
// value unquoted.
func (c *Censor) AddText(s string) {
	if c == nil {
		return
	}
	c.Add(s)
	multi := strings.Contains(strings.TrimSpace(s), "\n")
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if multi && len(l) >= MinLine {
			c.Add(l)
		}
		v := strings.TrimPrefix(l, "- ")
		if i := strings.Index(v, ": "); i > 0 {
			v = v[i+2:]
		}
		if v == l {
			continue // not a YAML value: only long lines count
		}
		if v = strings.TrimSpace(v); len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		if v != "|" && v != ">" {
			c.Add(v)
		}
	}
}

// AddValue learns every string held in a decoded value (a vaulted vars
// file's values, a task's arguments or result): strings (of any string
// type, a marked one too), and those inside maps and lists (map keys
// are names, not learned).
func (c *Censor) AddValue(v any) {
	if c == nil || v == nil {
		return
	}
	switch v := v.(type) {
	case string:
		c.AddText(v)
	case map[string]any:
		for _, e := range v {
			c.AddValue(e)
		}
	case []any:
		for _, e := range v {
			c.AddValue(e)
		}
	default:
		switch rv := reflect.ValueOf(v); rv.Kind() {
		case reflect.String:
			c.AddText(rv.String())
		case reflect.Slice, reflect.Array:
			for i := range rv.Len() {
				c.AddValue(rv.Index(i).Interface())
			}
		case reflect.Map:
			for it := rv.MapRange(); it.Next(); {
				c.AddValue(it.Value().Interface())
			}
		case reflect.Pointer:
			if !rv.IsNil() {
				c.AddValue(rv.Elem().Interface())
			}
		}
	}
}

// Values returns the secrets the censor knows, longest first.
func (c *Censor) Values() []string {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.sorted)
}

// Empty reports whether the censor knows no secret.
func (c *Censor) Empty() bool {
	if c == nil {
		return true
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.sorted) == 0
}

// String blanks every known secret in s with Mask.
func (c *Censor) String(s string) string {
	if c == nil {
		return s
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, v := range c.sorted {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, Mask)
		}
	}
	return s
}

// Value returns v with every known secret blanked in the strings it
// holds (map keys included); maps and lists are copied, v is not changed.
func (c *Censor) Value(v any) any {
	if c.Empty() {
		return v
	}
	switch v := v.(type) {
	case string:
		return c.String(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[c.String(k)] = c.Value(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = c.Value(e)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, e := range v {
			out[i] = c.String(e)
		}
		return out
	}
	return v
}
