package tasks

// ActionError is a failure an action raises before any module runs (its
// own check of its arguments, say): Ansible's executor reports it as a
// result of failed and msg alone, without changed, where a module's own
// failure says changed: false. Modules return it from Run as the error.
type ActionError struct {
	Msg string
	// Exception is the class and text of a Python exception the action
	// let through that is not Ansible's own ("ZeroDivisionError: division
	// by zero"): Ansible's worker reports it as an unexpected failure
	// during module execution, with the exception and an empty stdout.
	Exception string
}

// Error returns the message, as the result's msg.
func (e *ActionError) Error() string { return e.Msg }
