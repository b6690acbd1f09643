package builtin

import "strings"

// shAssign renders name=value pairs as shell assignments, one per line,
// every value quoted, to set a module script's inputs before its text.
func shAssign(pairs [][2]string) string {
	var b strings.Builder
	for _, kv := range pairs {
		b.WriteString(kv[0] + "=" + q(kv[1]) + "\n")
	}
	return b.String()
}
