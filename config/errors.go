package config

import "fmt"

// Class is what kind of failure an Error is, after what Ansible makes of
// it.
type Class int

// The classes of Error.
const (
	// Missing: the name is not a setting, or not an option of the
	// plugin (the config lookup's on_missing decides).
	Missing Class = iota + 1
	// Invalid: a value has the wrong type or is not one of the
	// setting's choices (Ansible's AnsibleOptionsError).
	Invalid
	// Refused: Ansible has a value here that tender cannot give.
	Refused
	// Failed: the lookup fails with the message as it is (Ansible's
	// AnsibleLookupError): a function named as a setting, a plugin
	// ansible-core does not ship.
	Failed
	// Unhandled: another failure (a required option without a value, a
	// value of a type the conversion cannot take), which Ansible reports
	// as an unhandled exception.
	Unhandled
)

var classNames = map[Class]string{Missing: "missing", Invalid: "invalid", Refused: "refused", Failed: "failed", Unhandled: "unhandled"}

// Error is a failure to give a setting's value, with Ansible's message.
type Error struct {
	Class Class
	Msg   string
}

// Error implements error.
func (e *Error) Error() string { return e.Msg }

// ErrorClass names the class ("missing", "invalid", "refused", "failed",
// "unhandled") for packages that do not import this one: the config
// lookup of playbooks/expr reads it through an interface.
func (e *Error) ErrorClass() string { return classNames[e.Class] }

func newError(c Class, format string, args ...any) *Error {
	return &Error{Class: c, Msg: fmt.Sprintf(format, args...)}
}

// entry is how Ansible names a setting in its messages (_get_entry):
// "plugin_type: connection plugin: ssh setting: port ", with the trailing
// space.
func entry(ptype, pname, name string) string {
	s := ""
	if ptype != "" {
		s += "plugin_type: " + ptype + " "
		if pname != "" {
			s += "plugin: " + pname + " "
		}
	}
	return s + "setting: " + name + " "
}
