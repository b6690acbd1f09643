package expr

import (
	"errors"
	"fmt"

	"github.com/tender-sh/tender/internal/yaml11"
)

// Condition evaluates one `when:` (or changed_when/failed_when/until)
// condition the way ansible-core 2.14 does: a non-string value (a YAML
// bool, a number) is taken for its truth; a string is first rendered if it
// contains template markup (Ansible warns about that), and the resulting
// text is then evaluated as an expression, as inside {% if %}: string
// escapes such as "\t" are processed. An empty condition is true, but a
// template that renders to an empty string is false; a yaml11.Unsafe
// condition is an error, as in Ansible.
func Condition(cond any, scope Scope) (bool, error) {
	if _, unsafe := cond.(yaml11.Unsafe); unsafe {
		return false, errorf("Conditional is marked as unsafe, and cannot be evaluated.")
	}
	s, ok := cond.(string)
	if cond == nil {
		return true, nil // as an empty condition
	}
	if !ok {
		return Truthy(cond), nil
	}
	if s == "" {
		return true, nil // an empty condition holds; a template that renders to "" does not
	}
	if IsTemplate(s) {
		v, err := Render(s, scope)
		if err != nil {
			return false, err
		}
		if _, unsafe := v.(yaml11.Unsafe); unsafe {
			return false, errorf("Conditional is marked as unsafe, and cannot be evaluated.")
		}
		if s, ok = v.(string); !ok {
			return Truthy(v), nil
		}
	}
	if s == "" {
		return false, nil
	}
	e, err := Parse(s)
	if err != nil {
		return false, err
	}
	if e.missing == nil && foldRaisesExpr(envOf(scope), e.root) {
		// Ansible's if-template came back unrendered (fold.go).
		return false, errorf("unable to evaluate conditional: %s", s)
	}
	v, err := e.Eval(scope)
	if err != nil {
		return false, undefinedTypeError(err, ifTemplate(s))
	}
	return Truthy(v), nil
}

// ConditionMessage is Ansible's message for a condition (when, assert's
// that, changed_when, …) that could not be evaluated: "The conditional
// check 'C' failed. The error was: …", where an undefined variable is
// "error while evaluating conditional (C): …" with its message said
// twice, as Ansible's wrapped exception says it, and what Python raises
// as a TypeError is an "Unexpected templating type error" on the template
// Ansible made of the condition; any other error gives its message
// without tender's position.
func ConditionMessage(cond string, err error) string {
	why := Message(err)
	var u *UndefinedError
	if errors.As(err, &u) {
		// A variable whose value used an undefined one says so as
		// Ansible's does: the value, then the error (u.hint).
		m := u.Msg
		if u.hint != "" {
			m = u.hint
		}
		why = fmt.Sprintf("error while evaluating conditional (%s): %s. %s", cond, m, m)
	} else if msg, ok := unhandled(err); ok {
		// A variable's value failed: Ansible wraps that error once per
		// variable, and the condition's template adds nothing.
		why = msg
	} else if msg, ok := compileMessage(err, ifTemplate(cond)); ok {
		why = msg
	} else if IsTypeError(err) {
		// The template Ansible evaluated: the condition itself when it
		// is one, else the expression in an if statement.
		why = fmt.Sprintf("Unexpected templating type error occurred on (%s): %s. %s", ifTemplate(cond), why, why)
	}
	return fmt.Sprintf("The conditional check '%s' failed. The error was: %s", cond, why)
}

// ifTemplate is the template Ansible evaluates for a condition: the
// condition itself when it is one, else the expression in an if statement.
func ifTemplate(cond string) string {
	if IsTemplate(cond) {
		return cond
	}
	return "{% if " + cond + " %} True {% else %} False {% endif %}"
}

// ConditionWarning is the warning Ansible gives for a condition written
// with template markers ({{ }}, {% %}), which it renders before it
// evaluates the result; "" for any other condition.
func ConditionWarning(cond any) string {
	s, ok := cond.(string)
	if !ok || !IsTemplate(s) {
		return ""
	}
	return "conditional statements should not include jinja2 templating delimiters such as {{ }} or {% %}. Found: " + s
}
