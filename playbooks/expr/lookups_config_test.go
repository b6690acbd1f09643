package expr

import (
	"errors"
	"strings"
	"testing"
)

// fakeConfig answers the config lookup from a map; an unknown name is a
// missing setting.
type fakeConfig map[string]any

type classedError struct{ class, msg string }

func (e *classedError) Error() string      { return e.msg }
func (e *classedError) ErrorClass() string { return e.class }

func (f fakeConfig) Setting(name string) (any, error) {
	if v, ok := f[name]; ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v, nil
	}
	return nil, &classedError{"missing", "no attribute '" + name + "'"}
}

func (f fakeConfig) PluginOption(ptype, pname, name string, vars func(string) (any, bool, error)) (any, error) {
	v, _, err := vars("ansible_" + name)
	return v, err
}

// TestConfigLookupContract checks what the config lookup makes of its
// ConfigSource: values as given, host variables read in the scope (as
// written: Ansible does not render them for the lookup), each
// error class as Ansible treats it, warnings through Env.Warn, and a
// refusal without a ConfigSource. (config/lookup_test.go checks it
// against ansible-playbook with tender's real configuration.)
func TestConfigLookupContract(t *testing.T) {
	var warned []string
	cfg := fakeConfig{"N": 5, "F": &classedError{"failed", "Invalid setting \"F\" attempted"},
		"I": &classedError{"invalid", "bad value"}, "U": errors.New("boom")}
	scope := NewVars(map[string]any{"ansible_port": "{{ who }}", "who": "lola"})
	scope.Env = &Env{Config: cfg, Warn: func(m string) { warned = append(warned, m) }}
	for src, want := range map[string]string{
		`lookup('config', 'N')`: "5",
		`q('config', 'port', plugin_type='connection', plugin_name='ssh')`: "['{{ who }}']",
		`q('config', 'X', 'N', on_missing='warn')`:                         "[5]",
		`lookup('config', 'F', errors='ignore')`:                           "None",
		`lookup('config', 'X')`:                                            "error: Unable to find setting X. no attribute 'X'. no attribute 'X'",
		`lookup('config', 'F')`:                                            `error: Invalid setting "F" attempted`,
		`lookup('config', 'I', errors='ignore')`:                           "error: bad value",
		`lookup('config', 'U')`:                                            "error: An unhandled exception occurred while running the lookup plugin 'config'. Error was: boom",
	} {
		v, err := evalSrc(src, scope)
		got := Repr(v)
		var ee *Error
		if errors.As(err, &ee) {
			got = "error: " + ee.Msg
		} else if err != nil {
			got = "error: " + err.Error()
		}
		if got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
	if len(warned) != 1 || warned[0] != "Skipping, did not find setting X" {
		t.Errorf("warnings: %q", warned)
	}
	_, err := evalSrc(`lookup('config', 'N')`, NewVars())
	if err == nil || !strings.Contains(err.Error(), "given no configuration") {
		t.Errorf("without Env.Config: %v", err)
	}
}

func evalSrc(src string, scope Scope) (any, error) {
	e, err := Parse(src)
	if err != nil {
		return nil, err
	}
	return e.Eval(scope)
}
