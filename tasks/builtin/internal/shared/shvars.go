package shared

import "strings"

// ShAssign renders name=value pairs as shell assignments, one per line,
// every value quoted, to set a module script's inputs before its text.
func ShAssign(pairs [][2]string) string {
	var b strings.Builder
	for _, kv := range pairs {
		b.WriteString(kv[0] + "=" + Q(kv[1]) + "\n")
	}
	return b.String()
}

// SetArgs renders words as a `set --` line that makes them a module
// script's positional parameters, every word quoted: how a script takes a
// list of inputs.
func SetArgs(words []string) string {
	var b strings.Builder
	b.WriteString("set --")
	for _, w := range words {
		b.WriteString(" " + Q(w))
	}
	b.WriteByte('\n')
	return b.String()
}
