package expr

import (
	"strings"
	"testing"
)

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

// TestConditionMessageValueTypeError: a condition that reads a variable
// whose value fails with a type error gives Ansible's wrapped message for
// that value, and nothing of the condition's own template.
func TestConditionMessageValueTypeError(t *testing.T) {
	const cond = "(tmpl is search('A'))"
	_, err := Condition(cond, NewVars(map[string]any{"v1": nil, "tmpl": "{{ (v1[1:]) }}-t63"}))
	const want = "The conditional check '(tmpl is search('A'))' failed. The error was: An unhandled exception occurred while templating " +
		"'{{ (v1[1:]) }}-t63'. Error was a <class 'ansible.errors.AnsibleError'>, original message: Unexpected templating type error " +
		"occurred on ({{ (v1[1:]) }}-t63): 'NoneType' object is not subscriptable. 'NoneType' object is not subscriptable"
	if err == nil || ConditionMessage(cond, err) != want {
		t.Fatalf("got %v\n%q", err, ConditionMessage(cond, err))
	}
}

// TestUnknownPluginMessages: a filter or test that does not load is a
// template error that quotes the template, as Ansible's, in a condition
// the template Ansible makes of it.
func TestUnknownPluginMessages(t *testing.T) {
	_, err := Render("{{ 1 | nope_filter }}", NewVars(nil))
	const want = "template error while templating string: Could not load \"nope_filter\": 'nope_filter'. String: {{ 1 | nope_filter }}. Could not load \"nope_filter\": 'nope_filter'"
	if err == nil || TemplateMessage(err) != want {
		t.Errorf("filter: got %v\n%q", err, TemplateMessage(err))
	}
	const cond = "1 is nope_test"
	_, err = Condition(cond, NewVars(nil))
	const wantCond = "The conditional check '1 is nope_test' failed. The error was: template error while templating string: Could not load \"nope_test\": 'nope_test'. String: {% if 1 is nope_test %} True {% else %} False {% endif %}. Could not load \"nope_test\": 'nope_test'"
	if err == nil || ConditionMessage(cond, err) != wantCond {
		t.Errorf("test: got %v\n%q", err, ConditionMessage(cond, err))
	}
	// A name given as a string is looked up while rendering: no template.
	_, err = Render("{{ [1] | map('nope_filter') | list }}", NewVars(nil))
	if err == nil || !strings.HasPrefix(TemplateMessage(err), "TemplateSyntaxError: Could not load") {
		t.Errorf("map: got %q", TemplateMessage(err))
	}
}

// TestUndefinedOperandMessage: a type error about an undefined operand is
// reported as Ansible's templating reports it, as an undefined variable
// that names the template (in a condition, its if statement).
func TestUndefinedOperandMessage(t *testing.T) {
	const cond = "((v4 | first) in grp)"
	_, err := Condition(cond, NewVars(map[string]any{"v4": []any{}, "grp": "b"}))
	const te = "'in <string>' requires string as left operand, not AnsibleUndefined"
	const x = "Unable to look up a name or access an attribute in template string ({% if ((v4 | first) in grp) %} True {% else %} False {% endif %}).\n" +
		"Make sure your variable name does not contain invalid characters like '-': " + te + ". " + te
	const want = "The conditional check '((v4 | first) in grp)' failed. The error was: error while evaluating conditional (((v4 | first) in grp)): " + x + ". " + x
	if err == nil || ConditionMessage(cond, err) != want {
		t.Fatalf("got %v\n%q", err, ConditionMessage(cond, err))
	}
}

// TestUndefinedMethodArgument: a str method given an undefined value
// raises Python's TypeError, which Ansible reports as an undefined
// variable; a method that takes no argument refuses one; other methods
// fail on the undefined value itself (each message as ansible-playbook
// 2.14 gives it).
func TestUndefinedMethodArgument(t *testing.T) {
	vars := NewVars(map[string]any{"e": []any{}})
	for src, want := range map[string]string{
		"{{ 'abc'.startswith(e | first) }}":   "startswith first arg must be str or a tuple of str, not AnsibleUndefined",
		"{{ 'abc'.replace(e | first, 'x') }}": "replace() argument 1 must be str, not AnsibleUndefined",
		"{{ 'abc'.split(e | first) }}":        "must be str or None, not AnsibleUndefined",
		"{{ 'abc'.count(e | first) }}":        "must be str, not AnsibleUndefined",
	} {
		checkUndefinedTypeError(t, src, vars, want)
	}
	for src, want := range map[string]string{
		"{{ 'abc'.upper(e | first) }}": "Unexpected templating type error occurred on ({{ 'abc'.upper(e | first) }}): str.upper() takes no arguments (1 given). str.upper() takes no arguments (1 given)",
		"{{ [1].index(e | first) }}":   "No first item, sequence was empty.",
		"{{ 'abc'.strip(e | first) }}": "Unexpected templating type error occurred on ({{ 'abc'.strip(e | first) }}): strip arg must be None or str. strip arg must be None or str",
	} {
		if _, err := Render(src, vars); err == nil || TemplateMessage(err) != want {
			t.Errorf("%s: got %q", src, TemplateMessage(err))
		}
	}
}

// TestConditionWarning: a condition written as a template gets Ansible's
// warning; a plain one, or one that is not a string, none.
func TestConditionWarning(t *testing.T) {
	const want = "conditional statements should not include jinja2 templating delimiters such as {{ }} or {% %}. Found: \"{{ foo }}\" == \"bar\""
	if got := ConditionWarning(`"{{ foo }}" == "bar"`); got != want {
		t.Errorf("got %q", got)
	}
	for _, c := range []any{"foo == 'bar'", true, nil} {
		if got := ConditionWarning(c); got != "" {
			t.Errorf("%v: got %q", c, got)
		}
	}
}

// TestNativeTextTypeName: a string-type filter's text is Ansible's
// NativeJinjaText inside a template, for type_debug and in a type error's
// text (as ansible-playbook 2.14 gives them).
func TestNativeTextTypeName(t *testing.T) {
	v, err := Render("{{ [1] | string | type_debug }} {{ 1 | to_json | type_debug }}", NewVars(nil))
	if err != nil || v != "NativeJinjaText NativeJinjaText" {
		t.Errorf("type_debug: %v, %v", v, err)
	}
	_, err = Render("{{ ([1] | string) > 1 }}", NewVars(nil))
	const want = "Unexpected templating type error occurred on ({{ ([1] | string) > 1 }}): '>' not supported between instances of 'NativeJinjaText' and 'int'. '>' not supported between instances of 'NativeJinjaText' and 'int'"
	if err == nil || TemplateMessage(err) != want {
		t.Errorf("got %q", TemplateMessage(err))
	}
}

// TestPythonExceptions: errors Ansible's templating does not turn into its
// own (a division by zero, Jinja's reverse of a non-iterable) say their
// Python class, which task validation reports as an exception.
func TestPythonExceptions(t *testing.T) {
	for src, want := range map[string]string{
		"{{ 5 / 0 }}":          "ZeroDivisionError: division by zero",
		"{{ 5 % 0 }}":          "ZeroDivisionError: integer modulo by zero",
		"{{ 5.0 // 0 }}":       "ZeroDivisionError: float floor division by zero",
		"{{ true | reverse }}": "jinja2.exceptions.FilterArgumentError: argument must be iterable",
	} {
		_, err := Render(src, NewVars(nil))
		class, msg, ok := PythonException(err)
		if !ok || class+": "+msg != want {
			t.Errorf("%s: %v (%q %q %v)", src, err, class, msg, ok)
		}
	}
	if _, _, ok := PythonException(errorf("x")); ok {
		t.Error("an Ansible error is not a Python exception")
	}
}

// TestRegexErrorIsException: a pattern or replacement that does not
// compile is Python's re.error, with Python's text (as ansible-playbook
// 2.14 shows it), which Ansible's templating does not catch.
func TestRegexErrorIsException(t *testing.T) {
	for src, want := range map[string]string{
		"{{ 'a' | regex_replace('(', 'x') }}":   "missing ), unterminated subpattern at position 0",
		"{{ 'a' | regex_replace('a', '\\1') }}": "invalid group reference 1 at position 1",
		"{{ 'a' is match('(') }}":               "missing ), unterminated subpattern at position 0",
	} {
		_, err := Render(src, NewVars(nil))
		if class, msg, ok := PythonException(err); !ok || class != "re.error" || msg != want {
			t.Errorf("%s: %q %q %v (%v)", src, class, msg, ok, err)
		}
	}
}

// TestUndefinedFilterInput: a filter whose Python raises a TypeError on an
// undefined value gives it (reported as an undefined variable naming the
// template), to_yaml its own error around the undefined one, the others
// the undefined value's error (each as ansible-playbook 2.14 gives it).
func TestUndefinedFilterInput(t *testing.T) {
	vars := NewVars(map[string]any{"e": []any{}})
	for src, te := range map[string]string{
		"{{ e | first | basename }}":         "expected str, bytes or os.PathLike object, not AnsibleUndefined",
		"{{ e | first | split('a') }}":       "descriptor 'split' for 'str' objects doesn't apply to a 'AnsibleUndefined' object",
		"{{ e | first | from_json }}":        "the JSON object must be str, bytes or bytearray, not AnsibleUndefined",
		"{{ e | first | splitext | first }}": "expected str, bytes or os.PathLike object, not AnsibleUndefined",
	} {
		checkUndefinedTypeError(t, src, vars, te)
	}
	for src, want := range map[string]string{
		"{{ e | first | to_yaml }}": "to_yaml - No first item, sequence was empty.. No first item, sequence was empty.",
		"{{ e | first | upper }}":   "No first item, sequence was empty.",
	} {
		if _, err := Render(src, vars); err == nil || TemplateMessage(err) != want {
			t.Errorf("%s: got %q", src, TemplateMessage(err))
		}
	}
}

// TestMinMaxTypeError: max compares item > best and min item < best, as
// Python's max() and min(): their TypeError names that operator and the
// types in that order (as ansible-playbook 2.14 gives it).
func TestMinMaxTypeError(t *testing.T) {
	for src, want := range map[string]string{
		"{{ ['a', 1] | max }}": "'>' not supported between instances of 'int' and 'str'",
		"{{ ['a', 1] | min }}": "'<' not supported between instances of 'int' and 'str'",
		"{{ [1, 'a'] | max }}": "'>' not supported between instances of 'str' and 'int'",
	} {
		_, err := Render(src, NewVars(nil))
		full := "Unexpected templating type error occurred on (" + src + "): " + want + ". " + want
		if err == nil || TemplateMessage(err) != full {
			t.Errorf("%s: got %q", src, TemplateMessage(err))
		}
	}
}

// checkUndefinedTypeError checks that src fails with the TypeError te
// about an undefined value, as Ansible reports one: an undefined variable
// that names the template.
func checkUndefinedTypeError(t *testing.T, src string, vars Scope, te string) {
	t.Helper()
	_, err := Render(src, vars)
	want := "Unable to look up a name or access an attribute in template string (" + src + ").\n" +
		"Make sure your variable name does not contain invalid characters like '-': " + te + ". " + te
	if err == nil || TemplateMessage(err) != want {
		t.Errorf("%s: got %q", src, TemplateMessage(err))
	}
}
