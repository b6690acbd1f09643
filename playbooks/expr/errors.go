package expr

import (
	"errors"
	"fmt"
	"strings"
)

// Error is a parse or evaluation error at a position in an expression or
// template. Col is the 1-based byte column in Src. Err, when set, is the
// cause (an *UndefinedError, a *CycleError, an os error from a lookup, …).
type Error struct {
	Src string
	Col int
	Msg string
	Err error
}

// Error implements error: "MSG (col N of "SRC")", or "MSG (line L col N
// of template)" when the source spans several lines.
func (e *Error) Error() string {
	if strings.Contains(e.Src, "\n") {
		line, col := e.Position()
		return fmt.Sprintf("%s (line %d col %d of template)", e.Msg, line, col)
	}
	src := e.Src
	if len(src) > 80 {
		src = src[:77] + "..."
	}
	return fmt.Sprintf("%s (col %d of %q)", e.Msg, e.Col, src)
}

// Position returns the 1-based line and column (in bytes) of Col in Src.
func (e *Error) Position() (line, col int) {
	off := min(max(e.Col-1, 0), len(e.Src))
	before := e.Src[:off]
	line = strings.Count(before, "\n") + 1
	return line, off - strings.LastIndexByte(before, '\n')
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// UndefinedError is the use of a variable (or attribute, key, index) that
// is not defined. Name is the variable's name, Msg the text Ansible prints
// ("'foo' is undefined", "'dict object' has no attribute 'bar'").
type UndefinedError struct {
	Name string
	Msg  string
	// hint is the hint of the undefined value Ansible makes of a variable
	// whose value failed to render this way: its value, then the error.
	hint string
}

// Error implements error.
func (e *UndefinedError) Error() string { return e.Msg }

// CycleError reports variables whose values refer to each other in a loop.
// Chain lists the names from the first lookup back to the repeated one.
type CycleError struct {
	Chain []string
}

// Error implements error.
func (e *CycleError) Error() string {
	return "recursive loop detected in template: " + strings.Join(e.Chain, " -> ")
}

// pyError is an evaluation failure without position; the evaluator wraps it
// into an *Error with the column of the node that failed.
type pyError struct {
	msg string
	// typ: Python raises it as a TypeError, which Ansible's templating
	// reports as an unexpected templating type error (IsTypeError).
	typ bool
	// compile: Jinja raises it while compiling the template (a filter or
	// test that does not load), which Ansible reports as a template error
	// with the template's text (isCompileError).
	compile bool
	// exc is the class of a Python exception that is not Ansible's (a
	// ZeroDivisionError), which Ansible's task validation reports as an
	// exception (PythonException), not as a message.
	exc string
	// value: Python raises it as a ValueError (IsValueError).
	value bool
}

// valueErrorf is errorf for what Python raises as a ValueError, which
// Ansible's task validation reports as a field's invalid value
// (IsValueError), or, where nothing validates, as an exception.
func valueErrorf(format string, args ...any) error {
	return &pyError{msg: fmt.Sprintf(format, args...), exc: "ValueError", value: true}
}

// IsValueError reports whether err is what Python raises as a ValueError
// in a template (a value of the right type that is refused: a negative
// count, a date that does not match its format).
func IsValueError(err error) bool {
	var pe *pyError
	return errors.As(err, &pe) && pe.value
}

// zeroDivision is Python's ZeroDivisionError with its text.
func zeroDivision(msg string) error { return &pyError{msg: msg, exc: "ZeroDivisionError"} }

// PythonException returns the class and text of the Python exception err
// stands for when it is not one of Ansible's own errors nor a TypeError
// (a ZeroDivisionError in a template): Ansible's worker returns such an
// exception of a task's arguments as a failed result that holds the
// exception, with no message, and a loop goes on to its next item.
func PythonException(err error) (class, msg string, ok bool) {
	var pe *pyError
	if !errors.As(err, &pe) || pe.exc == "" {
		return "", "", false
	}
	return pe.exc, pe.msg, true
}

func (e *pyError) Error() string { return e.msg }

func errorf(format string, args ...any) error { return &pyError{msg: fmt.Sprintf(format, args...)} }

// typeErrorf is errorf for what Python raises as a TypeError.
func typeErrorf(format string, args ...any) error {
	return &pyError{msg: fmt.Sprintf(format, args...), typ: true}
}

// IsTypeError reports whether err is what Python raises as a TypeError in
// a template (an operand of the wrong type, a call with the wrong
// arguments, a value that is not iterable...), which Ansible reports as
// "Unexpected templating type error occurred on (TEMPLATE): MSG".
func IsTypeError(err error) bool {
	var pe *pyError
	return errors.As(err, &pe) && pe.typ
}

// compileMessage is Ansible's text for a template (src) that Jinja could
// not compile: ok is false when err is not such an error.
func compileMessage(err error, src string) (string, bool) {
	var pe *pyError
	if !errors.As(err, &pe) || !pe.compile {
		return "", false
	}
	return fmt.Sprintf("template error while templating string: %s. String: %s. %s", pe.msg, src, pe.msg), true
}

// undefinedTypeError is err as Ansible's templating reports, for the
// template src, a TypeError about an undefined value (its message names
// AnsibleUndefined): an undefined variable, whose message says the
// template; any other error is returned as it is.
func undefinedTypeError(err error, src string) error {
	var pe *pyError
	if !errors.As(err, &pe) || !pe.typ || !strings.Contains(pe.msg, "AnsibleUndefined") {
		return err
	}
	m := fmt.Sprintf("Unable to look up a name or access an attribute in template string (%s).\n"+
		"Make sure your variable name does not contain invalid characters like '-': %s. %s", src, pe.msg, pe.msg)
	col := 1
	var e *Error
	if errors.As(err, &e) {
		col = e.Col
	}
	return &Error{Src: src, Col: col, Msg: m, Err: &UndefinedError{Msg: m}}
}

// varValueError is a variable's value that failed to render while another
// template read it.
type varValueError struct {
	name, value string
	err         error
}

func (e *varValueError) Error() string { return fmt.Sprintf("in the value of '%s': %v", e.name, e.err) }

func (e *varValueError) Unwrap() error { return e.err }

// unhandled is Ansible's text for a variable's value that failed to
// render with a templating type error while another template read it
// (its AnsibleJ2Vars wraps the error, once per variable); ok is false for
// any other error.
func unhandled(err error) (string, bool) {
	var ve *varValueError
	if !errors.As(err, &ve) || !IsTypeError(ve.err) {
		return "", false
	}
	inner, ok := unhandled(ve.err)
	if !ok {
		inner = TemplateMessage(ve.err)
	}
	return fmt.Sprintf("An unhandled exception occurred while templating '%s'. Error was a <class 'ansible.errors.AnsibleError'>, original message: %s", ve.value, inner), true
}

// TemplateMessage is the text Ansible gives for a template that failed
// to render with err: for what Python raises as a TypeError, the template
// and the message twice ("Unexpected templating type error occurred on
// ({{ x|first }}): 'int' object is not iterable. 'int' object is not
// iterable"); otherwise Message(err).
func TemplateMessage(err error) string {
	if msg, ok := unhandled(err); ok {
		return msg
	}
	var e *Error
	if errors.As(err, &e) {
		if msg, ok := compileMessage(err, e.Src); ok {
			return msg
		}
	}
	if !IsTypeError(err) || !errors.As(err, &e) {
		return Message(err)
	}
	return fmt.Sprintf("Unexpected templating type error occurred on (%s): %s. %s", e.Src, e.Msg, e.Msg)
}

// Message is err's text as Ansible gives it, without the position tender
// adds: the message of the *Error in err's chain (a filter's own text,
// "'x' is undefined", …), or err's text when it has none.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}

// ExceptionText is the text Ansible's template action gives for a
// template file that failed to render with err: the class of the
// exception its templar raised, a colon and the exception's text, as
// "%s: %s" % (type(e).__name__, e) writes them. A Python exception keeps
// its own class (ZeroDivisionError, re's error); an undefined value is
// AnsibleUndefinedVariable, whose text carries its cause again; anything
// else is an AnsibleError with the templating message.
func ExceptionText(err error) string {
	if class, msg, ok := PythonException(err); ok {
		return class[strings.LastIndexByte(class, '.')+1:] + ": " + msg
	}
	var ue *UndefinedError
	if errors.As(err, &ue) {
		m := Message(err)
		return "AnsibleUndefinedVariable: " + m + ". " + m
	}
	return "AnsibleError: " + TemplateMessage(err)
}
