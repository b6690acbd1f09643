package config

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// refusedSettings are base settings whose values tender cannot give, and
// why.
var refusedSettings = map[string]string{
	"DEFAULT_LOCAL_TMP": "Ansible makes a private temporary directory on the controller for each run and names it there; tender makes none",
}

// resolveBase resolves every base setting, in Ansible's order (ANSIBLE_HOME
// first: other defaults are made from it).
func (c *Config) resolveBase() error {
	for i := range baseSettings {
		s := &baseSettings[i]
		v, origin, err := c.resolve("", "", s, nil)
		if why, ok := refusedSettings[s.Name]; ok && (err == nil || errors.Is(err, errRefused)) {
			err = newError(Refused, "tender cannot give the setting %s: %s", s.Name, why)
		} else if err != nil {
			return err
		}
		c.values[s.Name] = resolved{value: v, origin: origin, err: err}
	}
	return nil
}

// resolve finds the value of s as Ansible's get_config_value_and_origin
// does for the config lookup (no play keywords, no direct options): the
// last of its host variables that is set (vars may be nil), its
// command-line options, its environment variables, its ansible.cfg
// entries, else its default; converted to its type and checked against
// its choices.
func (c *Config) resolve(ptype, pname string, s *Setting, vars func(string) (any, bool, error)) (any, string, error) {
	var value any
	origin := ""
	set := func(v any, from string) {
		if v != nil {
			value, origin = v, from
		}
	}
	if vars != nil {
		for _, name := range s.Vars {
			v, ok, err := vars(name)
			if err != nil {
				return nil, "", err
			}
			if ok {
				set(v, "var: "+name)
			}
		}
	}
	if value == nil {
		for _, name := range s.CLI {
			set(c.cli[name], "cli: "+name)
		}
	}
	if value == nil {
		for _, name := range s.Env {
			if v, ok := c.getenv(name); ok {
				set(v, "env: "+name)
			}
		}
	}
	if value == nil && c.ini != nil {
		for _, e := range s.Ini {
			if v, ok, err := c.ini.GetRaw(e.Section, e.Key); err == nil && ok {
				set(v, c.file)
			}
		}
	}
	if value == nil {
		if s.Required {
			if ptype != "lookup" || s.Name != "_terms" {
				return nil, "", newError(Unhandled, "No setting was provided for required configuration %s", entry(ptype, pname, s.Name))
			}
		} else {
			value, origin = c.defaultValue(s), "default"
		}
	}
	v, err := c.ensureType(value, s.Type, c.baseDir(origin))
	var ve *errValue
	switch {
	case errors.Is(err, errRefused):
		return nil, origin, err
	case errors.As(err, &ve) && strings.HasPrefix(origin, "env:") && value == "":
		origin = "default"
		if v, err = c.ensureType(c.defaultValue(s), s.Type, ""); err != nil {
			return nil, origin, newError(Invalid, "Invalid type for configuration option %s (from %s): %s", strings.TrimSpace(entry(ptype, pname, s.Name)), origin, err)
		}
	case errors.As(err, &ve):
		return nil, origin, newError(Invalid, "Invalid type for configuration option %s (from %s): %s", strings.TrimSpace(entry(ptype, pname, s.Name)), origin, err)
	case err != nil:
		return nil, origin, newError(Unhandled, "Unhandled exception when retrieving %s:\n%s", s.Name, err)
	}
	if err := checkChoices(ptype, pname, s, v); err != nil {
		return nil, origin, err
	}
	return v, origin, nil
}

// defaultValue is s's documented default; a HomeDefault is appended to
// ANSIBLE_HOME's value.
func (c *Config) defaultValue(s *Setting) any {
	if s.HomeDefault {
		home, _ := c.values["ANSIBLE_HOME"].value.(string)
		return home + s.Default.(string)
	}
	return s.Default
}

// baseDir is where a relative path from origin is resolved: beside
// ansible.cfg for a value read from it, else the working directory.
func (c *Config) baseDir(origin string) string {
	if c.file != "" && origin == c.file {
		return filepath.Dir(c.file)
	}
	return ""
}

// checkChoices fails a value that is not one of s's choices (for a list,
// an element that is not).
func checkChoices(ptype, pname string, s *Setting, v any) error {
	if v == nil || len(s.Choices) == 0 {
		return nil
	}
	ok := true
	if list, isList := v.([]any); isList && s.Type == "list" {
		for _, e := range list {
			ok = ok && choiceOK(s.Choices, e)
		}
	} else {
		ok = choiceOK(s.Choices, v)
	}
	if ok {
		return nil
	}
	valid := make([]string, len(s.Choices))
	for i, ch := range s.Choices {
		valid[i] = pyfmt.Str(ch)
	}
	return newError(Invalid, "Invalid value \"%s\" for configuration option \"%s\", valid values are: %s",
		pyfmt.Str(v), entry(ptype, pname, s.Name), strings.Join(valid, ", "))
}

func choiceOK(choices []any, v any) bool {
	for _, ch := range choices {
		if pyEqual(ch, v) {
			return true
		}
	}
	return false
}

// pyEqual is Python's == for the scalar values choices hold (True == 1 ==
// 1.0).
func pyEqual(a, b any) bool {
	sa, aStr := a.(string)
	sb, bStr := b.(string)
	if aStr || bStr {
		return aStr && bStr && sa == sb
	}
	fa, errA := toFloat(a)
	fb, errB := toFloat(b)
	return errA == nil && errB == nil && fa == fb
}
