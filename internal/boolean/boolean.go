// Package boolean reads the words Ansible's boolean() takes for true and
// false ("yes", "off", "1", ...), which its module arguments, keywords,
// configuration, tests and lookups all accept. Each caller keeps its own
// rule for values that are not text (numbers, None) and for a word that
// is neither: strict callers fail, lenient ones read false.
package boolean

import (
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// Valid lists the values a strict boolean takes, as Ansible's error
// message lists them.
const Valid = "'y', 'yes', 'on', '1', 'true', 't', 1, 'n', 'no', 'off', '0', 'false', 'f', 0"

// Word reads s as Ansible reads a string it wants a boolean from
// (s.lower().strip() among its words): ok is false when it is neither a
// true nor a false word.
func Word(s string) (value, ok bool) {
	switch strings.ToLower(strings.TrimFunc(s, pyfmt.IsSpace)) {
	case "y", "yes", "on", "1", "true", "t":
		return true, true
	case "n", "no", "off", "0", "false", "f":
		return false, true
	}
	return false, false
}

// True reports whether s is one of the true words: boolean(s,
// strict=False), which reads every other string as false.
func True(s string) bool {
	v, ok := Word(s)
	return v && ok
}
