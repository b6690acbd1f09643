package expr

import (
	"github.com/tender-sh/tender/internal/yaml11"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

func TestRandomChoicePicksAmongItsTerms(t *testing.T) {
	terms := []any{"a", "b", "c"}
	seen := map[any]bool{}
	for range 200 {
		got, err := RunLookup(nil, "random_choice", terms, nil)
		if err != nil || len(got) != 1 {
			t.Fatalf("got %v, %v", got, err)
		}
		if !contain1(terms, got[0]) {
			t.Fatalf("%v is not one of %v", got[0], terms)
		}
		seen[got[0]] = true
	}
	if len(seen) < 2 {
		t.Errorf("200 picks among 3 gave only %v", seen)
	}
	scope := &Vars{Layers: []map[string]any{{"opts": []any{"x", "y"}}}}
	for range 50 {
		v, err := Render("{{ lookup('random_choice', *opts) }}", scope)
		if err != nil || (Str(v) != "x" && Str(v) != "y") {
			t.Fatalf("got %v, %v", v, err)
		}
	}
}

func contain1(l []any, x any) bool {
	for _, e := range l {
		if Equal(e, x) {
			return true
		}
	}
	return false
}

// with_<lookup> loops fail with the plugin's own message, as Ansible's do.
func TestRunLookupErrorsAreThePluginsMessages(t *testing.T) {
	for name, want := range map[string]string{
		"together":    "with_together requires at least one element in each list",
		"nested":      "with_nested requires at least one element in the nested list",
		"subelements": "subelements lookup expects a list of two or three items, ",
		"first_found": "No file was found when using first_found.",
		"nosuch":      "lookup plugin (nosuch) not found",
	} {
		_, err := RunLookup(&Env{SearchPaths: []string{t.TempDir()}}, name, nil, nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", name, err, want)
		}
	}
}

func TestRunLookupInReadsVariables(t *testing.T) {
	scope := &Vars{Layers: []map[string]any{{"a": 1, "b": "{{ a + 1 }}"}}}
	got, err := RunLookupIn(scope, "ansible.builtin.vars", []any{"a", "b"}, nil)
	if err != nil || !Equal(got, []any{1, "2"}) {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, err := RunLookup(nil, "vars", []any{"a"}, nil); err == nil {
		t.Error("RunLookup has no variables: vars must fail")
	}
}

// Lookups that read controller files look only where the Env says, in
// the order it says: the role's files/ before the playbook's.
func TestIniLookupUsesTheSearchPath(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"role/files/app.ini": "[global]\nwho = role\n",
		"pb/files/app.ini":   "[global]\nwho = playbook\n",
		"pb/only.ini":        "[global]\nwho = playbook dir\n",
	})
	env := &Env{SearchPaths: []string{filepath.Join(dir, "role"), filepath.Join(dir, "pb")}}
	for file, want := range map[string]string{"app.ini": "role", "only.ini": "playbook dir"} {
		got, err := RunLookup(env, "ini", []any{"who"}, map[string]any{"file": file})
		if err != nil || !Equal(got, []any{want}) {
			t.Errorf("%s: got %v, %v; want %s", file, got, err, want)
		}
	}
	if _, err := RunLookup(env, "ini", []any{"who"}, map[string]any{"file": "missing.ini"}); err == nil {
		t.Error("a file outside the search path must not be found")
	}
}

// errors='ignore' silences what the plugin fails on, never an undefined
// variable, invalid options or an unknown plugin.
func TestLookupErrorsIgnore(t *testing.T) {
	env, _ := testEnv(t)
	scope := &Vars{Layers: []map[string]any{{}}, Env: env}
	for src, ignored := range map[string]bool{
		`lookup('file', 'missing.txt', errors='ignore')`:                  true,
		`lookup('ini', 'x', file='nosuch.ini', errors='warn')`:            true,
		`lookup('vars', 'missing', errors='ignore')`:                      false,
		`lookup('ini', 'x', type='yaml', errors='ignore')`:                false,
		`lookup('first_found', {'files': 5}, errors='ignore')`:            false,
		`lookup('nosuchplugin', errors='ignore')`:                         false,
		`lookup('file', 'missing.txt', errors='strict')`:                  false,
		`lookup('file', 'missing.txt', errors='anything but ignore')`:     false,
		`query('subelements', [{'a': 1}], 'a', errors='ignore') == []`:    true,
		`lookup('subelements', [{'a': 1}], 'a', errors='ignore') is none`: true,
	} {
		e, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		v, err := e.Eval(scope)
		if ignored && (err != nil || (v != nil && v != true)) {
			t.Errorf("%s: want it ignored, got %v, %v", src, v, err)
		}
		if !ignored && err == nil {
			t.Errorf("%s: want an error, got %v", src, Repr(v))
		}
	}
}

func TestSubelementsDoesNotChangeItsInput(t *testing.T) {
	users := []any{map[string]any{"name": "a", "db": map[string]any{"hosts": []any{"h"}}}}
	got, err := RunLookup(nil, "subelements", []any{users, "db.hosts"}, nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, ok := users[0].(map[string]any)["db"].(map[string]any)["hosts"]; !ok {
		t.Error("the input lost its list")
	}
	if _, ok := got[0].([]any)[0].(map[string]any)["db"].(map[string]any)["hosts"]; ok {
		t.Error("the pair's dict still holds the list, Ansible's does not")
	}
}

func TestNestedLookupIsBounded(t *testing.T) {
	big := make([]any, 2000)
	for i := range big {
		big[i] = i
	}
	if _, err := RunLookup(nil, "nested", []any{big, big, big}, nil); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("want a size error, got %v", err)
	}
}

func TestEveryPythonSpaceSeparatesTokens(t *testing.T) {
	scope := &Vars{Layers: []map[string]any{{"n": 5, "s": "x"}}}
	count := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		py := r >= 0x1c && r <= 0x1f || unicode.IsSpace(r)
		if pySpace(r) != py {
			t.Fatalf("pySpace(%U) = %v, Python's isspace says %v", r, pySpace(r), py)
		}
		if !py {
			continue
		}
		count++
		sp := string(r)
		e, err := Parse("n" + sp + "+" + sp + sp + "1" + sp)
		if err != nil {
			t.Fatalf("%U: %v", r, err)
		}
		if v, err := e.Eval(scope); err != nil || v != 6 {
			t.Fatalf("%U: got %v, %v", r, v, err)
		}
		if v, err := Render("{{"+sp+"s"+sp+"}}<"+sp+"{{- s -}}"+sp+">", scope); err != nil || v != "x<x>" {
			t.Fatalf("%U: got %q, %v", r, v, err)
		}
	}
	if count != 29 {
		t.Errorf("%d whitespace runes, Python has 29", count)
	}
	// inside a string literal it is text
	if v, err := Render("{{ 'a\u00a0b' }}", scope); err != nil || v != "a\u00a0b" {
		t.Errorf("got %q, %v", v, err)
	}
}

func TestCallArgumentSyntax(t *testing.T) {
	scope := &Vars{Layers: []map[string]any{{"l": []any{1, 2}, "d": map[string]any{"reverse": true}}}}
	for src, want := range map[string]any{
		"range(*l) | list":               []any{1},
		"[2, 3, 1] | sort(**d)":          []any{3, 2, 1},
		"lookup('list', wantlist=1, *l)": []any{1, 2},
		"dict(a=1, **{'b': 2})":          map[string]any{"a": 1, "b": 2},
		"(3 is divisibleby(*[3]))":       true,
		"'%s-%s' | format(*l,)":          "1-2",
	} {
		e, err := Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if v, err := e.Eval(scope); err != nil || !Equal(v, want) {
			t.Errorf("%s: got %s, %v; want %s", src, Repr(v), err, Repr(want))
		}
	}
	for src, msg := range map[string]string{
		"f(*l, 1)":              "positional argument follows *iterable",
		"f(a=1, 1)":             "positional argument follows keyword argument",
		"f(**d, a=1)":           "expected a valid argument",
		"f(**d, **d)":           "expected a valid argument",
		"f(*l, *l)":             "expected a valid argument",
		"f(a=1, a=2)":           "keyword argument repeated: a",
		"dict(**l)":             "argument after ** must be a mapping, not list",
		"range(*5)":             "Value after * must be an iterable, not int",
		"dict(a=1, **{'a': 1})": "got multiple values for keyword argument 'a'",
	} {
		e, err := Parse(src)
		if err == nil {
			_, err = e.Eval(scope)
		}
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: want an error containing %q, got %v", src, msg, err)
		}
	}
}

func TestLookupsRefuseHugeFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for name, opts := range map[string]map[string]any{
		"file":     nil,
		"template": nil,
		"ini":      {"file": "/dev/zero"},
	} {
		_, err := RunLookup(nil, name, []any{"/dev/zero"}, opts)
		if err == nil || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s: want a size error, got %v", name, err)
		}
	}
}

// TestLookupTermsTemplatedUnlessUnsafe: a lookup's terms are templated
// again, but a term that came from a host (unsafe) stays as it is, so a
// host cannot make a lookup run its template.
func TestLookupTermsTemplatedUnlessUnsafe(t *testing.T) {
	env, _ := testEnv(t)
	hostile := yaml11.Unsafe("{{ lookup('env', 'PATH') }}")
	scope := &Vars{Layers: []map[string]any{{"x": "hello", "fact": hostile}}, Env: env}
	for src, want := range map[string]any{
		`query('items', ['{{ x }}'])`:    []any{"hello"},
		`query('items', [fact])`:         []any{hostile},
		`lookup('vars', 'f{{ "act" }}')`: hostile,
	} {
		e, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		v, err := e.Eval(scope)
		if err != nil || Repr(plain(v)) != Repr(plain(want)) {
			t.Errorf("%s: got %s, %v; want %s", src, Repr(v), err, Repr(want))
		}
	}
}
