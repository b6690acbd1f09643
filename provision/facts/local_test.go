package facts

import (
	"errors"
	"reflect"
	"testing"
)

// TestParseINI checks the INI reader against Python's configparser: each
// want is what ConfigParser().read_file + get made of the text (recorded
// with Python 3.11), or the kind of error it raised.
func TestParseINI(t *testing.T) {
	cases := []struct {
		name, text string
		want       map[string]any
		err        error
	}{
		{"basic", "[s]\nKey = Value\nother: x = y\n", map[string]any{"s": map[string]any{"key": "Value", "other": "x = y"}}, nil},
		{"default and interpolation", "[DEFAULT]\nbase = /opt\n[a]\npath = %(base)s/a\n[b]\nbase = /srv\npath = %(BASE)s/b\n",
			map[string]any{"a": map[string]any{"path": "/opt/a", "base": "/opt"}, "b": map[string]any{"base": "/srv", "path": "/srv/b"}}, nil},
		{"continuation lines", "[s]\nmotd = one\n  two\n\n  three\nnext = n\n", map[string]any{"s": map[string]any{"motd": "one\ntwo\n\nthree", "next": "n"}}, nil},
		{"percent", "[s]\np = 100%%\n", map[string]any{"s": map[string]any{"p": "100%"}}, nil},
		{"lone percent", "[s]\np = 100%\n", nil, errIniInterpolate},
		{"missing reference", "[s]\np = %(nope)s\n", nil, errIniInterpolate},
		{"no section header", "key = value\n", nil, errIniParse},
		{"duplicate section", "[s]\na=1\n[s]\nb=2\n", nil, errIniParse},
		{"duplicate option", "[s]\na=1\nA=2\n", nil, errIniParse},
		{"no delimiter", "[s]\njustakey\n", nil, errIniParse},
		{"empty option name", "[s]\n= value\n", nil, errIniParse},
		{"comments", "# c\n; c\n[s]\n  # indented comment\na = 1 # not a comment\n", map[string]any{"s": map[string]any{"a": "1 # not a comment"}}, nil},
		{"empty values", "[s]\na =\nb:\n", map[string]any{"s": map[string]any{"a": "", "b": ""}}, nil},
		{"text after a header", "[s] trailing\na=1\n", map[string]any{"s": map[string]any{"a": "1"}}, nil},
		{"empty", "", map[string]any{}, nil},
		{"reference to itself", "[s]\na = %(a)s\n", nil, errIniInterpolate},
		{"crlf lines", "[s]\r\na = 1\r\n", map[string]any{"s": map[string]any{"a": "1"}}, nil},
	}
	for _, c := range cases {
		got, err := parseINI(c.text)
		if !errors.Is(err, c.err) || (c.err == nil && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("%s: got %v, %v; want %v, %v", c.name, got, err, c.want, c.err)
		}
	}
}

func TestLoadFactJSON(t *testing.T) {
	got, err := loadFact(`{"i": 3, "f": 3.0, "e": 1e3, "big": 12345678901234, "l": [1, "x", null, true]}`)
	want := map[string]any{"i": 3, "f": 3.0, "e": 1000.0, "big": 12345678901234, "l": []any{1, "x", nil, true}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, %v", got, err)
	}
	if v, err := loadFact(`"just a string"`); err != nil || v != "just a string" {
		t.Errorf("a JSON string: %#v, %v", v, err)
	}
	if _, err := loadFact(`{"a": 1} trailing`); err == nil {
		t.Error("JSON with trailing text read as a fact")
	}
}

func TestSplitFactRun(t *testing.T) {
	cases := []struct {
		blob, out, err string
		rc             int
		ok             bool
	}{
		{"\n0 8\n{\"a\": 1}", `{"a": 1}`, "", 0, true},
		{"oops\n\n3 7\npartial", "partial", "oops\n", 3, true},
		{"\n0 0", "", "", 0, true},
		{"warn\n\n0 9\n0 5\nabcde", "0 5\nabcde", "warn\n", 0, true}, // stdout that looks like a header
		{"\n0 4\nsnow\u2603", "snow\u2603", "", 0, false},            // a length that fits neither count
		{"\n0 5\nsnow\u2603", "snow\u2603", "", 0, true},             // characters, as busybox may count
	}
	for _, c := range cases {
		rc, out, errText, ok := splitFactRun(c.blob)
		if ok != c.ok || (ok && (rc != c.rc || out != c.out || errText != c.err)) {
			t.Errorf("%q: got %d %q %q %v", c.blob, rc, out, errText, ok)
		}
	}
}

func TestLocalFacts(t *testing.T) {
	out := "v|system|Linux\n" +
		"o|local|/etc/ansible/facts.d/a.fact\na|line|[s]\na|line|k = v\n" +
		"o|local|/etc/ansible/facts.d/b.factory.fact\na|line|{\"n\": 1}\n" +
		"o|local|/etc/ansible/facts.d/run.fact\na|exec|1\na|out|boom\na|out|\na|out|2 0\n" +
		"o|local|/etc/ansible/facts.d/bad.fact\na|line|neither\n" +
		"o|local|/etc/ansible/facts.d/empty.fact\n" +
		"o|local|/etc/ansible/facts.d/dead.fact\na|nostat|1\n"
	f, err := Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a":     map[string]any{"s": map[string]any{"k": "v"}},
		"bory":  map[string]any{"n": 1}, // Ansible drops every ".fact" of the name
		"run":   "Failure executing fact script (/etc/ansible/facts.d/run.fact), rc: 2, err: boom\n",
		"bad":   "error loading facts as JSON or ini - please check content: /etc/ansible/facts.d/bad.fact",
		"empty": map[string]any{},
		"dead":  "Could not stat fact (/etc/ansible/facts.d/dead.fact): [Errno 2] No such file or directory: '/etc/ansible/facts.d/dead.fact'",
	}
	if !reflect.DeepEqual(f["local"], want) {
		t.Errorf("local = %#v", f["local"])
	}
	// An INI fact Ansible cannot interpolate makes its collector fail.
	f, _ = Parse([]byte("v|system|Linux\no|local|/x/p.fact\na|line|[s]\na|line|p = 5%\n"))
	if _, ok := f["local"]; ok {
		t.Errorf("local = %v, want none", f["local"])
	}
}
