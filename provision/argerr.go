package provision

import (
	"errors"
	"fmt"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// argsError is a failure to render a task's arguments, with the message
// Ansible gives (playbooks assert on it): for an undefined variable, "The
// task includes an option with an undefined variable. The error was: …"
// and where the task is; for any other error (a filter's), the error's own
// text. It unwraps to the cause.
type argsError struct {
	msg string
	err error
}

func (e *argsError) Error() string { return e.msg }

func (e *argsError) Unwrap() error { return e.err }

// renderArgsError returns err, from rendering t's arguments, as an argsError.
func renderArgsError(t *playbooks.Task, err error) error {
	var u *expr.UndefinedError
	if _, why, ok := expr.PythonException(err); ok && expr.IsValueError(err) {
		// As Ansible's validation of the task's args field, which a
		// ValueError escapes templating to.
		msg := fmt.Sprintf("the field 'args' has an invalid value (%s), and could not be converted to an dict.The error was: %s", expr.Repr(t.Args), why)
		if t.Pos.File != "" && t.Pos.Line > 0 {
			msg += t.Pos.Quote()
		}
		return &argsError{msg: msg, err: err}
	}
	if !errors.As(err, &u) {
		return &argsError{msg: typeErrorText(err), err: err}
	}
	msg := fmt.Sprintf("The task includes an option with an undefined variable. The error was: %s. %s", u.Msg, u.Msg)
	if t.Pos.File != "" && t.Pos.Line > 0 {
		msg += t.Pos.Quote()
	}
	return &argsError{msg: msg, err: err}
}

// undefinedTwice gives an undefined variable's error Ansible's text for a
// task that fails on it outside its arguments (a loop, an include's
// file): the message twice ("'x' is undefined. 'x' is undefined"); any
// other error is returned as it is.
func undefinedTwice(err error) error {
	var u *expr.UndefinedError
	if !errors.As(err, &u) {
		return err
	}
	return &argsError{msg: u.Msg + ". " + u.Msg, err: err}
}

// typeErrorText is err's message as Ansible gives it (expr.TemplateMessage).
func typeErrorText(err error) string { return expr.TemplateMessage(err) }
