package sandbox

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// CheckEnv returns a *DeniedError unless the controller's environment
// variable name may be read: Env must list it.
func (p *Policy) CheckEnv(name string) error {
	if p == nil || slices.Contains(p.Env, name) {
		return nil
	}
	return &DeniedError{Policy: p.Name, Access: "env", Target: name, Allowed: p.Env}
}

// LookupEnv is os.LookupEnv as the policy shows the controller's
// environment to a playbook: a variable Env does not list looks unset. A
// nil Policy shows every variable.
func (p *Policy) LookupEnv(name string) (string, bool) {
	if p.CheckEnv(name) != nil {
		return "", false
	}
	return os.LookupEnv(name)
}

// CheckEnvName returns an error unless name can name an environment
// variable: not empty, without "=" or a NUL byte.
func CheckEnvName(name string) error {
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return fmt.Errorf("%q is not an environment variable's name", name)
	}
	return nil
}
