package expr

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilterArgumentsHonoured: arguments Ansible's filters take are
// taken (a keyword as well as a position), and input they refuse is
// refused, rather than dropped or read some other way.
func TestFilterArgumentsHonoured(t *testing.T) {
	scope := NewVars(map[string]any{"multi": "a: 1\n---\nb: 2\n", "d": map[string]any{"a": nil}})
	for src, want := range map[string]string{
		"{{ 2 | pow(y=3) }}":             "8.0",
		"{{ 2 | pow(3) }}":               "8.0",
		"{{ d | from_yaml }}":            "{'a': None}",
		"{{ 'x: [1, 2]' | from_yaml }}":  "{'x': [1, 2]}",
		"{{ 'abc' | hash('blake2b') }}":  "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923",
		"{{ 'abc' | hash('blake2s') }}":  "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982",
		"{{ 'abc' | hash('sha3_256') }}": "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
		"{{ 'abc' | hash('SHA256') }}":   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"{{ 'pw' | password_hash('sha512', 'saltsalt', rounds=10000.0) }}": "$6$rounds=10000$saltsalt$PCkl82bcVNZUyS5el2MR9Coq8KSFAH2TLAV2NKcVGH1Dq51jMRJNvf2NrUOE/Sv9WOINUlZWqywN9lCRzMZF.1",
		"{{ 'abc' | hash('sha512_256') }}":                                 "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
	} {
		got, err := Render(src, scope)
		if err != nil || Str(got) != want {
			t.Errorf("%s = %q, %v; want %q", src, Str(got), err, want)
		}
	}
	for src, want := range map[string]string{
		"{{ multi | from_yaml }}":         "expected a single document",
		"{{ 2 | pow }}":                   "missing 1 required positional argument: 'y'",
		"{{ 'abc' | hash('whirlpool') }}": "unsupported hash type whirlpool",
		"{{ 'pw' | password_hash('sha512', 'saltsalt', rounds='10000') }}": "%d format: a real number is required, not str",
	} {
		if got, err := Render(src, scope); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s = %q, %v; want an error with %q", src, Str(got), err, want)
		}
	}
}

// TestYAMLKeywords: the YAML filters honour explicit_start and
// explicit_end as PyYAML writes them, and refuse the dump keywords
// tender's writer does not honour rather than dropping them.
func TestYAMLKeywords(t *testing.T) {
	scope := NewVars(nil)
	for src, want := range map[string]string{
		"{{ {'a': 1} | to_yaml(explicit_start=True) }}":                 "--- {a: 1}\n",
		"{{ 'a: b' | to_yaml(explicit_start=True) }}":                   "--- 'a: b'\n",
		"{{ {'a': 1} | to_nice_yaml(explicit_end=True) }}":              "a: 1\n...\n",
		"{{ {'a': [1]} | to_nice_yaml(explicit_start=True) }}":          "---\na:\n- 1\n",
		"{{ {} | to_nice_yaml(explicit_start=True) }}":                  "--- {}\n",
		"{{ 'x' | to_yaml(explicit_start=True, explicit_end=True) }}":   "--- x\n...\n",
		"{{ {'a': 1} | to_yaml(allow_unicode=True, canonical=False) }}": "{a: 1}\n",
	} {
		got, err := Render(src, scope)
		if err != nil || Str(got) != want {
			t.Errorf("%s = %q, %v; want %q", src, Str(got), err, want)
		}
	}
	for _, src := range []string{"{{ {'a': 1} | to_yaml(width=40) }}", "{{ 'x' | to_nice_yaml(allow_unicode=False) }}",
		"{{ 1 | to_yaml(canonical=True) }}", "{{ 1 | to_yaml(tags={'!a': 'b'}) }}"} {
		if got, err := Render(src, scope); err == nil || !strings.Contains(err.Error(), "is not supported by tender") {
			t.Errorf("%s = %q, %v; want it refused", src, Str(got), err)
		}
	}
}

// TestLoopFirstFoundSubdir: a with_first_found loop looks in the
// subdirectory the task's action names, as ansible-core's loop sets the
// lookup's subdir: templates for template, vars for include_vars, files
// otherwise; the lookup called in an expression looks in files.
func TestLoopFirstFoundSubdir(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"templates/a.j2", "vars/a.j2", "files/a.j2"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scope := NewVars(nil)
	scope.Env = &Env{BaseDir: dir}
	for action, want := range map[string]string{"ansible.builtin.template": "templates", "template": "templates",
		"include_vars": "vars", "copy": "files", "debug": "files"} {
		got, err := RunLoopLookupIn(scope, "first_found", action, []any{"a.j2"})
		if err != nil || len(got) != 1 || got[0] != filepath.Join(dir, want, "a.j2") {
			t.Errorf("%s: %v, %v; want %s/a.j2", action, got, err, want)
		}
	}
	got, err := RunLookupIn(scope, "first_found", []any{"a.j2"}, nil)
	if err != nil || len(got) != 1 || got[0] != filepath.Join(dir, "files", "a.j2") {
		t.Errorf("lookup: %v, %v", got, err)
	}
}

// TestExpandUserOther: ~name is that user's home, as Python's
// expanduser reads the user database; an unknown user stays as written.
func TestExpandUserOther(t *testing.T) {
	me, err := user.Current()
	if err != nil || me.Username == "" || me.HomeDir == "" {
		t.Skip("no user database entry for the current user")
	}
	home := strings.TrimRight(me.HomeDir, "/")
	scope := NewVars(nil)
	for src, want := range map[string]string{
		"{{ '~" + me.Username + "/x' | expanduser }}": home + "/x",
		"{{ '~" + me.Username + "' | expanduser }}":   home,
		"{{ '~no-such-user-here/x' | expanduser }}":   "~no-such-user-here/x",
	} {
		if got, err := Render(src, scope); err != nil || Str(got) != want {
			t.Errorf("%s = %q, %v; want %q", src, Str(got), err, want)
		}
	}
}

// TestSetTests: subset and superset compare as Python's sets: a string
// is its characters, a dict its keys, 1 == 1.0 == True, the other set
// may be given by keyword (b), and a list or dict item is unhashable.
func TestSetTests(t *testing.T) {
	scope := NewVars(nil)
	src := "{{ [['ab'] is subset('xaby'), ['a','b'] is subset('xaby'), [1,2] is superset(b=[1]), " +
		"{'a':1} is subset(['a','b']), [1] is subset([1.0]), [True] is subset([1]), 'ab' is issubset('abc'), [3] is subset([1, 2])] }}"
	got, err := Render(src, scope)
	if err != nil || Str(got) != "[False, True, True, True, True, True, True, False]" {
		t.Errorf("%s = %q, %v", src, Str(got), err)
	}
	if _, err := Render("{{ [[1]] is subset([[1]]) }}", scope); err == nil || !strings.Contains(err.Error(), "unhashable type: 'list'") {
		t.Errorf("a list item: %v", err)
	}
}

// TestRandomOnDict: random on a dict fails as Python's random.choice
// does (it indexes the dict by position), rather than picking a key.
func TestRandomOnDict(t *testing.T) {
	_, err := Render("{{ {'a': 1, 'b': 2} | random }}", NewVars(nil))
	if class, _, ok := PythonException(err); !ok || class != "KeyError" {
		t.Errorf("random of a dict: %v", err)
	}
}
