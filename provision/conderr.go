package provision

import (
	"errors"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// conditionError is a condition (when, changed_when, failed_when, until)
// that could not be evaluated, with Ansible's message
// (expr.ConditionMessage). It unwraps to the cause.
func conditionError(cond string, err error) error {
	return &argsError{msg: expr.ConditionMessage(cond, err), err: err}
}

// atTask adds where t is to a condition's error, as Ansible does for a
// task's when: (its other conditions are evaluated apart from the task and
// say nothing of where).
func atTask(t *playbooks.Task, err error) error {
	var ae *argsError
	if t == nil || t.Pos.File == "" || t.Pos.Line == 0 || !errors.As(err, &ae) {
		return err
	}
	return &argsError{msg: ae.msg + t.Pos.Quote(), err: ae.err}
}
