package expr

import "testing"

// TestConditionMessageValueUndefined: a condition that reads a variable
// whose value uses an undefined one says the value and the error, as
// ansible-core 2.14 words it.
func TestConditionMessageValueUndefined(t *testing.T) {
	const cond = "('0x1f' > tmpl)"
	_, err := Condition(cond, NewVars(map[string]any{"tmpl": "{{ v5 | first }}-t90"}))
	const want = "The conditional check '('0x1f' > tmpl)' failed. The error was: error while evaluating conditional (('0x1f' > tmpl)): " +
		"{{ v5 | first }}-t90: 'v5' is undefined. 'v5' is undefined. {{ v5 | first }}-t90: 'v5' is undefined. 'v5' is undefined"
	if err == nil || ConditionMessage(cond, err) != want {
		t.Fatalf("got %v\n%q", err, ConditionMessage(cond, err))
	}
}
