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
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Q(w)
	}
	return SetWords(quoted)
}

// SetWords is SetArgs for words already rendered as shell words (by Q,
// ShPath or ExpandWord), which the host may expand.
func SetWords(words []string) string {
	return "set -- " + strings.Join(words, " ") + "\n"
}
