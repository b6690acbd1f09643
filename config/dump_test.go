package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// scenario is one entry of testdata/scenarios.yaml.
type scenario struct {
	Name     string            `yaml:"name"`
	Env      map[string]string `yaml:"env"`
	Files    map[string]string `yaml:"files"`
	Writable []string          `yaml:"writable"`
}

// dump is what testdata/gen.py recorded from ansible-config for a scenario.
type dump struct {
	RC       int                                     `json:"rc"`
	Warnings []string                                `json:"warnings"`
	Error    *string                                 `json:"error"`
	Base     map[string][2]any                       `json:"base"`
	Plugins  map[string]map[string]map[string][2]any `json:"plugins"`
}

// setUp makes the scenario's directory and returns its root and the
// options Load gets there.
func setUp(t *testing.T, s scenario) (string, Options) {
	root := t.TempDir()
	for _, d := range []string{"home", "cwd", "other"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, text := range s.Files {
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range s.Writable {
		if err := os.Chmod(filepath.Join(root, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": filepath.Join(root, "home")}
	for k, v := range s.Env {
		env[k] = strings.ReplaceAll(v, "@ROOT@", root)
	}
	return root, Options{
		Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Dir:    filepath.Join(root, "cwd"),
		// ansible-config has none of ansible-playbook's options
		CLI: map[string]any{"private_key_file": nil, "timeout": nil},
	}
}

// TestDumpAgainstAnsible loads each scenario and compares every base
// setting (value and origin) and every plugin option's value with what
// ansible-config dump printed for it.
func TestDumpAgainstAnsible(t *testing.T) {
	raw, err := os.ReadFile("testdata/scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Scenarios []scenario }
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	defer func(old string) { systemFile = old }(systemFile)
	systemFile = filepath.Join(t.TempDir(), "none")
	for _, s := range doc.Scenarios {
		t.Run(s.Name, func(t *testing.T) {
			root, opts := setUp(t, s)
			text, err := os.ReadFile(filepath.Join("testdata", "dump", s.Name+".json"))
			if err != nil {
				t.Fatalf("%v: rerun testdata/gen.py", err)
			}
			var want dump
			d := json.NewDecoder(strings.NewReader(strings.ReplaceAll(string(text), "@ROOT@", root)))
			d.UseNumber()
			if err := d.Decode(&want); err != nil {
				t.Fatal(err)
			}
			c, err := Load(opts)
			if want.Error != nil {
				if err == nil || err.Error() != *want.Error {
					t.Fatalf("Load: got error %v, ansible-config failed with %q", err, *want.Error)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			// Only the warnings about finding ansible.cfg are tender's:
			// it writes no log file and prints no deprecation notices.
			var warnings, wantWarnings []string
			for _, w := range c.Warnings() {
				warnings = append(warnings, strings.Join(strings.FieldsFunc(w, unicode.IsSpace), ""))
			}
			for _, w := range want.Warnings {
				if strings.Contains(w, "ansible.cfgsource") {
					wantWarnings = append(wantWarnings, w)
				}
			}
			if !reflect.DeepEqual(warnings, wantWarnings) {
				t.Errorf("warnings: got %q, want %q", warnings, wantWarnings)
			}
			compareBase(t, c, want.Base)
			comparePlugins(t, c, want.Plugins)
		})
	}
}

func compareBase(t *testing.T, c *Config, want map[string][2]any) {
	t.Helper()
	public := 0
	for _, s := range baseSettings {
		if !strings.HasPrefix(s.Name, "_") {
			public++
		}
	}
	// ansible-config leaves out the private settings (_COLOR_DEFAULTS)
	if len(want) != public+1 {
		t.Errorf("ansible-config has %d settings, tender %d (and CONFIG_FILE): rerun gen.py", len(want), public)
	}
	for name, vo := range want {
		got, err := c.Setting(name)
		var ce *Error
		switch {
		case name == "DEFAULT_LOCAL_TMP":
			if !errors.As(err, &ce) || ce.Class != Refused {
				t.Errorf("%s: tender should refuse it, got %v, %v", name, got, err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		}
		if pyJSON(got) != pyJSON(vo[0]) {
			t.Errorf("%s = %#v, ansible-config says %#v", name, got, vo[0])
		}
		if o := c.Origin(name); name != "CONFIG_FILE" && o != vo[1] {
			t.Errorf("%s comes from %q, ansible-config says %q", name, o, vo[1])
		}
	}
}

func comparePlugins(t *testing.T, c *Config, want map[string]map[string]map[string][2]any) {
	t.Helper()
	n, withOptions := 0, 0 // ansible-config leaves out the plugins without options
	for _, p := range pluginTable {
		if len(p.Options) > 0 {
			withOptions++
		}
	}
	for ptype, plugins := range want {
		for pname, opts := range plugins {
			n++
			table, ok := PluginOptions(ptype, pname)
			if !ok || len(table) != len(opts) {
				t.Errorf("%s %s: tender has %d options, ansible-config %d", ptype, pname, len(table), len(opts))
			}
			for name, vo := range opts {
				got, err := c.PluginOption(ptype, pname, name, nil)
				if vo[1] == "REQUIRED" {
					// an error, or no value at all (a lookup's _terms)
					var ce *Error
					if !errors.As(err, &ce) && (err != nil || got != nil) || ce != nil && ce.Class != Unhandled {
						t.Errorf("%s %s %s: want a required-option error or nothing, got %v, %v", ptype, pname, name, got, err)
					}
					continue
				}
				if err != nil || pyJSON(got) != pyJSON(vo[0]) {
					t.Errorf("%s %s %s = %#v, %v; ansible-config says %#v", ptype, pname, name, got, err, vo[0])
				}
			}
		}
	}
	if n != withOptions {
		t.Errorf("ansible-config has %d plugins with options, tender %d", n, withOptions)
	}
}

// pyJSON is v as Python's json.dumps(v, sort_keys=True) writes it, so
// that tender's values and the recorded ones (decoded with UseNumber:
// json.Number keeps a float's ".0") compare with int and float apart.
func pyJSON(v any) string {
	s, err := pyfmt.JSON(v, pyfmt.JSONOptions{Convert: func(x any) (any, error) {
		n, ok := x.(json.Number)
		if rv := reflect.ValueOf(x); !ok && rv.Kind() == reflect.String {
			return rv.String(), nil // an unsafe string, as lookups return
		}
		if !ok {
			return nil, fmt.Errorf("no JSON for %T", x)
		}
		if strings.ContainsAny(string(n), ".eE") {
			return n.Float64()
		}
		i, err := n.Int64()
		return int(i), err
	}})
	if err != nil {
		return "error: " + err.Error()
	}
	return s
}
