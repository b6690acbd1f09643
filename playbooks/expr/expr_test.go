package expr

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/yaml11"
)

func TestLazyVars(t *testing.T) {
	v := NewVars(
		map[string]any{"a": "{{ b }}-{{ c }}", "b": "{{ c | upper }}", "c": "x", "l": []any{"{{ c }}", 1}, "n": "{{ 2 + 3 }}"},
		map[string]any{"c": "y"}, // a later layer wins, also for values rendered lazily below it
	)
	for src, want := range map[string]any{
		"{{ a }}":     "Y-y",
		"{{ l }}":     []any{"y", 1},
		"{{ n * 2 }}": "55", // n renders to the string "5", as in Ansible
		"{{ l[0] }}":  "y",
	} {
		got, err := Render(src, v)
		if err != nil || !strictEqual(got, want) {
			t.Errorf("%s = %s, %v; want %s", src, Repr(got), err, Repr(want))
		}
	}
}

func TestCycleIsAnError(t *testing.T) {
	v := NewVars(map[string]any{"a": "{{ b }}", "b": "{{ c }}", "c": "{{ a }}", "self": "{{ self + 1 }}"})
	for _, src := range []string{"{{ a }}", "{{ self }}"} {
		_, err := Render(src, v)
		var ce *CycleError
		if !errors.As(err, &ce) {
			t.Fatalf("%s: want a CycleError, got %v", src, err)
		}
		if !strings.Contains(err.Error(), "recursive loop") {
			t.Errorf("%s: %v", src, err)
		}
	}
}

func TestUndefinedNamesTheVariable(t *testing.T) {
	v := NewVars(map[string]any{"d": map[string]any{"a": 1}, "ref": "{{ missing_inner }}"})
	for src, name := range map[string]string{
		"{{ missing }}":               "missing",
		"x {{ missing | upper }}":     "missing",
		"{{ d.nokey }}":               "d.nokey",
		"{{ d['nokey'] + 1 }}":        "d['nokey']",
		"{{ missing.attr }}":          "missing",
		"{{ ref }}":                   "missing_inner",
		"{% if missing %}{% endif %}": "missing",
	} {
		_, err := Render(src, v)
		var ue *UndefinedError
		if !errors.As(err, &ue) || ue.Name != name {
			t.Errorf("%s: want UndefinedError for %q, got %#v", src, name, err)
		}
	}
	// tolerated exactly where Ansible tolerates it
	for _, src := range []string{"{{ missing is defined }}", "{{ missing is undefined }}", "{{ missing | default(1) }}", "{{ missing.a.b | d(1) }}", "{{ d.nokey is defined }}"} {
		if _, err := Render(src, v); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

func TestUnsafeIsNeverTemplated(t *testing.T) {
	u := yaml11.Unsafe("{{ lookup('pipe', 'rm -rf /') }}")
	v := NewVars(map[string]any{"u": u, "l": []any{u}})
	got, err := Render("{{ u }}", v)
	if err != nil || got != u {
		t.Fatalf("got %#v, %v", got, err)
	}
	// a template that reads an unsafe value gives an unsafe result
	got, err = Render("x{{ u }}", v)
	if err != nil || got != yaml11.Unsafe("x"+string(u)) {
		t.Fatalf("got %#v, %v", got, err)
	}
	got, err = RenderDeep(map[string]any{"k": u, "l": []any{u}}, v)
	if err != nil || got.(map[string]any)["k"] != u {
		t.Fatalf("got %#v, %v", got, err)
	}
	if ok, _ := Render("{{ u is string and u | length > 5 }}", v); ok != true {
		t.Fatalf("unsafe should act as a string, got %v", ok)
	}
}

func TestOmit(t *testing.T) {
	v := NewVars(nil)
	for _, src := range []string{"{{ omit }}", "{{ nope | default(omit) }}"} {
		got, err := Render(src, v)
		if err != nil || !IsOmit(got) {
			t.Errorf("%s: got %#v, %v", src, got, err)
		}
	}
	got, _ := Render("a{{ omit }}", v)
	if s, _ := got.(string); !strings.HasPrefix(s, "a__omit_place_holder__") {
		t.Errorf("omit in a string: %q", s)
	}
}

func TestParseErrorsSayWhatWasExpected(t *testing.T) {
	for src, want := range map[string]string{
		"1 +":       "expected an expression, got end of input (col 4",
		"(1":        "expected ')' or ',', got end of input (col 3",
		"[1, 2":     "expected ',' or ']'",
		"x is":      "expected test name after 'is'",
		"d.":        "expected attribute name after '.'",
		"'abc":      "unterminated string (col 1",
		"1 2":       "expected end of expression, got number 2 (col 3",
		"a not b":   "expected 'in' after 'not'",
		"f(a=1, 2)": "positional argument follows keyword argument",
		"x | ":      "expected filter name after '|'",
		"{'a' 1}":   "expected ':' after dict key",
		"a ? b":     "unexpected character '?' (col 3",
	} {
		_, err := Parse(src)
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want %q", src, err, want)
		}
	}
	for src, want := range map[string]string{
		"{% if x %}":       "missing {% endif %}",
		"{% for x in y %}": "missing {% endfor %}",
		"{% endif %}":      "unexpected 'endif'",
		"{% while %}":      "unknown tag 'while'",
		"{{ 1 ":            "expected '}}', got end of input",
		"{# open":          "missing end of comment tag",
		"{% if x %}{% else %}{% else %}{% endif %}": "unexpected second 'else'",
	} {
		_, err := ParseTemplate(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTemplate(%q) = %v; want %q", src, err, want)
		}
	}
}

func TestEvalErrorHasColumn(t *testing.T) {
	e, err := Parse("n + 'x'")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Eval(NewVars(map[string]any{"n": 1}))
	var pe *Error
	if !errors.As(err, &pe) || pe.Col != 3 || !strings.Contains(pe.Msg, "unsupported operand type(s) for +: 'int' and 'str'") {
		t.Fatalf("got %#v", err)
	}
}

// when: conditions process string escapes (Ansible wraps them in {% if %}),
// {{ }} takes string literals verbatim (Ansible doubles their backslashes).
func TestStringEscapesWhenVersusTemplate(t *testing.T) {
	v := NewVars(map[string]any{"k": "4.18.0-513.el8"})
	e, _ := Parse(`"a\tb" | length == 3 and k is search("\\.el8")`)
	if got, err := e.Eval(v); err != nil || got != true {
		t.Fatalf("when: got %v, %v", got, err)
	}
	got, err := Render(`{{ "a\tb" | length }} {{ k | regex_replace("\.el8", "") }}`, v)
	if err != nil || got != "4 4.18.0-513" {
		t.Fatalf("template: got %q, %v", got, err)
	}
}

func TestTruthyAndStr(t *testing.T) {
	for _, c := range []struct {
		v     any
		truth bool
		str   string
	}{
		{nil, false, "None"}, {true, true, "True"}, {0, false, "0"}, {0.0, false, "0.0"}, {"", false, ""},
		{[]any{}, false, "[]"}, {map[string]any{}, false, "{}"}, {"0", true, "0"},
		{[]any{"a", 1, nil, 1.5}, true, "['a', 1, None, 1.5]"},
		{map[string]any{"b": []any{"it's"}, "a": true}, true, `{'a': True, 'b': ["it's"]}`},
		{1e22, true, "1e+22"}, {123456789012345.0, true, "123456789012345.0"},
	} {
		if Truthy(c.v) != c.truth || Str(c.v) != c.str {
			t.Errorf("%#v: Truthy %v Str %q", c.v, Truthy(c.v), Str(c.v))
		}
	}
}

func TestIsTemplate(t *testing.T) {
	for s, want := range map[string]bool{"plain": false, "{{ x }}": true, "a {% if %}": true, "{# c #}": true, "{ x }": false} {
		if IsTemplate(s) != want {
			t.Errorf("IsTemplate(%q) != %v", s, want)
		}
	}
}

// sha512-crypt against outputs recorded from Python's crypt.crypt (glibc)
// and `openssl passwd -6`.
func TestShaCrypt(t *testing.T) {
	for _, c := range []struct {
		key, salt string
		rounds    int
		is512     bool
		want      string
	}{
		{"pass", "saltsalt", 0, true, "$6$saltsalt$KN.twvCyfwE67paW76hS2/bacYkY9PxIhxqYG9vL5bZmIwWBGDJ6mu4HlCosKUBfQwVXKXxXVXPcqdwd1Ip0X/"},
		// the examples of Drepper's specification
		{"Hello world!", "saltstring", 0, true, "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"},
		{"Hello world!", "saltstringsaltstring", 10000, true, "$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v."},
		{"Hello world!", "saltstring", 0, false, "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"},
		{"This is just a test", "toolongsaltstring", 5000, true, "$6$rounds=5000$toolongsaltstrin$lQ8jolhgVRVhY4b5pZKaysCLi0QBxGoNeKQzQ3glMhwllF7oGDZxUhx1yxdYcz/e1JSbq3y6JMxxl8audkUEm0"},
	} {
		if got, _ := shaCrypt(nil, c.is512, c.key, c.salt, c.rounds); got != c.want {
			t.Errorf("shaCrypt(%q, %q, %d) = %s, want %s", c.key, c.salt, c.rounds, got, c.want)
		}
	}
}

func TestLooseVersion(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"2.6.32-754.el6", "2.6.32", 1}, {"4.18.0-513.el8.x86_64", "4.18.0-477.el8.x86_64", 1},
		{"1.10", "1.9", 1}, {"7.9", "7.9", 0}, {"1.0", "1.0.0", -1}, {"12", "7", 1},
	} {
		got, err := compareLoose(c.a, c.b)
		if err != nil || got != c.want {
			t.Errorf("compareLoose(%s, %s) = %d, %v", c.a, c.b, got, err)
		}
	}
}

func TestPasswordLookupWritesItsFile(t *testing.T) {
	dir := t.TempDir()
	env := &Env{BaseDir: dir}
	v := &Vars{Env: env}
	first, err := Render("{{ lookup('password', 'creds/db length=16 chars=ascii_letters') }}", v)
	if err != nil {
		t.Fatal(err)
	}
	p := Str(first) // a lookup result is unsafe
	if len(p) != 16 || strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		t.Fatalf("password %q", p)
	}
	b, err := os.ReadFile(filepath.Join(dir, "creds/db"))
	if err != nil || string(b) != p+"\n" {
		t.Fatalf("file %q, %v", b, err)
	}
	if st, _ := os.Stat(filepath.Join(dir, "creds/db")); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	again, _ := Render("{{ lookup('password', 'creds/db length=16') }}", v)
	if Str(again) != p {
		t.Fatalf("second lookup %q != %q", again, p)
	}
	hashed, err := Render("{{ lookup('password', 'creds/db encrypt=sha512_crypt') }}", v)
	if err != nil || !strings.HasPrefix(Str(hashed), "$6$") {
		t.Fatalf("encrypt: %v %v", hashed, err)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "creds/db"))
	if !strings.HasPrefix(string(b), p+" salt=") {
		t.Fatalf("file after encrypt: %q", b)
	}
}

func TestLinesLookupIsOffByDefault(t *testing.T) {
	_, err := Render("{{ lookup('lines', 'echo hi') }}", NewVars())
	if err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Fatalf("got %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	tm, err := ParseTemplate("{% for x in l %}{{ x * n }}{% endfor %}")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for i := range 8 {
		go func() {
			got, _ := tm.Render(NewVars(map[string]any{"l": []any{1, 2}, "n": i}))
			done <- got.(string)
		}()
	}
	for range 8 {
		<-done
	}
}

func TestCondition(t *testing.T) {
	v := NewVars(map[string]any{"n": 5, "c": "n > 3", "flag": false})
	for cond, want := range map[any]bool{
		true: true, false: false, nil: true, "": true, "{{ '' }}": false, 1: true,
		"n > 3": true, "{{ n > 30 }}": false, "{{ c }}": true, "flag": false, "{{ flag }}": false,
	} {
		got, err := Condition(cond, v)
		if err != nil || got != want {
			t.Errorf("Condition(%#v) = %v, %v; want %v", cond, got, err, want)
		}
	}
	if _, err := Condition(yaml11.Unsafe("n > 3"), v); err == nil {
		t.Error("an unsafe condition must fail")
	}
	if _, err := Condition("nope", v); err == nil {
		t.Error("an undefined name in a condition must fail")
	}
}

func TestDeepNestingIsAnError(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000),
		strings.Repeat("-", 100000) + "1",
		strings.Repeat("not ", 100000) + "1",
		strings.Repeat("[", 100000),
	} {
		if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), "too deeply") {
			t.Errorf("%.20s…: %v", src, err)
		}
	}
	if _, err := ParseTemplate(strings.Repeat("{% if 1 %}", 100000)); err == nil || !strings.Contains(err.Error(), "too deeply") {
		t.Errorf("nested blocks: %v", err)
	}
	long := strings.Repeat("1 + ", 400) + "1"
	e, err := Parse(long)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := e.Eval(NewVars()); err != nil || v != 401 {
		t.Errorf("long sum: %v %v", v, err)
	}
}

func TestFileTemplateProcessesEscapes(t *testing.T) {
	tm, err := ParseFileTemplate(`{{ "a\tb" | length }}{% if true %}` + "\n" + `x{% endif %}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tm.Render(NewVars()); err != nil || got != "3x" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestErrorPositionInMultilineTemplate(t *testing.T) {
	_, err := ParseTemplate("line one\n{% if x %}\n  {{ 1 + }}\n{% endif %}")
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("got %v", err)
	}
	if l, c := pe.Position(); l != 3 || c != 10 || !strings.Contains(err.Error(), "line 3 col 10") {
		t.Fatalf("line %d col %d: %v", l, c, err)
	}
}

func TestRunawayInputFails(t *testing.T) {
	for _, src := range []string{
		"{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
		"{{ 'x' * 10000000 ~ 'x' * 10000000 }}",
		"{{ (['x' * 1000000] * 1000) | join }}",
		"{{ range(10000000) | list }}",
		"{{ 'ab' | replace('', 'x' * 10000000) }}",
	} {
		if _, err := Render(src, NewVars()); err == nil {
			t.Errorf("%s: want an error", src)
		}
	}
	if v, err := Render("{{ range(200000) | unique | length }}", NewVars()); err != nil || v != "200000" {
		t.Errorf("unique on a long list: %v %v", v, err)
	}
}

// TestErrorsInsideVariablesNameThem: an undefined variable met while a
// variable's value renders is reported as Ansible reports it, each value
// in front of its error with its cause.
func TestErrorsInsideVariablesNameThem(t *testing.T) {
	v := NewVars(map[string]any{"outer": "x{{ inner }}", "inner": "{{ missing }}", "bad": "{{ 1 + 'x' }}"})
	_, err := Render("{{ outer }}", v)
	in := "{{ missing }}: 'missing' is undefined. 'missing' is undefined"
	if want := "x{{ inner }}: " + in + ". " + in; err == nil || Message(err) != want {
		t.Errorf("got %v, want %s", err, want)
	}
	_, err = Render("{{ bad }}", v)
	if err == nil || !strings.Contains(err.Error(), "in the value of 'bad': unsupported operand") {
		t.Errorf("got %v", err)
	}
}

// hostvars: a Scope stored as a value is a dict resolved lazily in its own
// scope, so another host's templated variables render with that host's
// values.
func TestScopeValuesActAsLazyDicts(t *testing.T) {
	web1 := NewVars(map[string]any{"inventory_hostname": "web1", "port": 80, "url": "http://{{ inventory_hostname }}:{{ port }}"})
	web2 := NewVars(map[string]any{"inventory_hostname": "web2", "port": 8080, "url": "http://{{ inventory_hostname }}:{{ port }}"})
	hostvars := NewVars(map[string]any{"web1": web1, "web2": web2})
	me := web1.With(map[string]any{"hostvars": hostvars, "groups": map[string]any{"web": []any{"web1", "web2"}}})
	for src, want := range map[string]any{
		"{{ hostvars['web2'].url }}":                                         "http://web2:8080",
		"{{ hostvars[groups.web[1]]['port'] + 1 }}":                          "8081",
		"{{ hostvars | length }}":                                            "2",
		"{{ groups.web | map('extract', hostvars, 'port') | list }}":         []any{80, 8080},
		"{{ 'web2' | extract(hostvars, ['url']) }}":                          "http://web2:8080",
		"{{ 'web2' in hostvars }}":                                           true,
		"{{ hostvars.web3 is defined }}":                                     false,
		"{{ hostvars.web2.nope | default('d') }}":                            "d",
		"{% for h in hostvars %}{{ h }}={{ hostvars[h].port }} {% endfor %}": "web1=80 web2=8080 ",
		"{{ hostvars.web1 | to_json }}":                                      `{"inventory_hostname": "web1", "port": 80, "url": "http://web1:80"}`,
		"{{ hostvars | type_debug }}":                                        "dict",
	} {
		got, err := Render(src, me)
		if err != nil || !strictEqual(got, want) {
			t.Errorf("%s = %s, %v; want %s", src, Repr(got), err, Repr(want))
		}
	}
}

// An evaluation stops at its next step once its Env's Done is closed, so
// that Ctrl-C ends a run stuck in an expensive template.
func TestEvaluationInterrupted(t *testing.T) {
	done := make(chan struct{})
	v := NewVars(map[string]any{})
	v.Env = &Env{Done: done}
	close(done)
	_, err := Render("{% for i in range(4000000) %}{{ i }}{% endfor %}", v)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	v.Env = &Env{}
	if _, err := Render("{% for i in range(3) %}{{ i }}{% endfor %}", v); err != nil {
		t.Fatal(err)
	}
}

// Python's float() reads "inf" and "infinity" in any case, signed or not.
func TestFloatOfInfinityText(t *testing.T) {
	for in, want := range map[string]float64{"inf": math.Inf(1), " Infinity ": math.Inf(1), "+INF": math.Inf(1), "-inf": math.Inf(-1), "-Infinity": math.Inf(-1)} {
		if got, ok := pyFloat(in); !ok || got != want {
			t.Errorf("float(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
}

// TestTestKeywordArguments: the tests whose Python functions take their
// argument by keyword (sameas's other, in's seq, contains's value) take
// it so in tender; the operator tests take it by position only.
func TestTestKeywordArguments(t *testing.T) {
	v := NewVars(map[string]any{})
	for src, want := range map[string]any{
		"{{ 1 is sameas(other=1) }}":          true,
		"{{ 2 is in(seq=[1]) }}":              false,
		"{{ [1, 2] is contains(value=2) }}":   true,
		"{{ 'a' is in(seq='abc') }}":          true,
		"{{ [1] is contains(value=[1]) }}":    false,
		"{{ 3 is sameas(3) and 3 is eq(3) }}": true,
	} {
		got, err := Render(src, v)
		if err != nil || !strictEqual(got, want) {
			t.Errorf("%s = %s, %v; want %s", src, Repr(got), err, Repr(want))
		}
	}
	if _, err := Render("{{ 1 is eq(b=1) }}", v); err == nil || !strings.Contains(err.Error(), "takes no keyword arguments") {
		t.Errorf("eq by keyword: %v", err)
	}
}

// TestJoinAttributeKeepsTheList: join(attribute=) picks the attribute of
// each item into a list of its own, leaving the variable's list as it
// was.
func TestJoinAttributeKeepsTheList(t *testing.T) {
	users := []any{map[string]any{"name": "bob", "age": 30}, map[string]any{"name": "al", "age": 25}}
	v := NewVars(map[string]any{"users": users})
	got, err := Render("{{ users | join(',', attribute='age') }}|{{ users[0].name }}", v)
	if err != nil || got != "30,25|bob" {
		t.Errorf("got %s, %v", Repr(got), err)
	}
	if _, ok := users[0].(map[string]any); !ok {
		t.Errorf("the list was changed: %v", users)
	}
}

// TestRoundArguments: round's precision is a whole number (Python's
// errors otherwise) and its method is checked first.
func TestRoundArguments(t *testing.T) {
	v := NewVars(map[string]any{})
	for src, want := range map[string]string{
		"{{ 2.1 | round('ceil') }}":       "'str' object cannot be interpreted as an integer",
		"{{ 2.1 | round(1.5) }}":          "'float' object cannot be interpreted as an integer",
		"{{ 2.1 | round('x', 'floor') }}": "unsupported operand type(s) for ** or pow(): 'int' and 'str'",
		"{{ 'a' | round(1, 'up') }}":      "method must be common, ceil or floor",
	} {
		if _, err := Render(src, v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	got, err := Render("{{ 2.15 | round(1, 'ceil') }} {{ 7 | round(true) }} {{ 2.5 | round }}", v)
	if err != nil || got != "2.2 7 2.0" {
		t.Errorf("got %s, %v", Repr(got), err)
	}
}

// TestPprintSortsOneLine: pprint sorts every dict's keys, on one line
// as on several.
func TestPprintSortsOneLine(t *testing.T) {
	v := NewVars(map[string]any{})
	got, err := Render("x{{ {'b': 2, 'a': {'z': 1, 'y': [{'q': 1, 'p': 2}]}} | pprint }}", v)
	if want := "x{'a': {'y': [{'p': 2, 'q': 1}], 'z': 1}, 'b': 2}"; err != nil || got != want {
		t.Errorf("got %s, %v; want %s", Repr(got), err, want)
	}
}

// TestJinjaFilterSignatures: a call of one of Jinja2's filters that does
// not bind to its Python function fails with Python's message, where
// tender's implementation would have ignored the extra argument.
func TestJinjaFilterSignatures(t *testing.T) {
	v := NewVars(map[string]any{})
	for src, want := range map[string]string{
		"{{ 'abc' | upper(1) }}":              "do_upper() takes 1 positional argument but 2 were given",
		"{{ [1, 2] | join(sep=',') }}":        "sync_do_join() got an unexpected keyword argument 'sep'",
		"{{ [1, 2] | join(',', 'a', 'b') }}":  "sync_do_join() takes from 2 to 4 positional arguments but 5 were given",
		"{{ 'abc' | truncate(2, length=3) }}": "do_truncate() got multiple values for argument 'length'",
		"{{ [1] | batch() }}":                 "do_batch() missing 1 required positional argument: 'linecount'",
		"{{ [1] | length(2) }}":               "len() takes exactly one argument (2 given)",
		"{{ -1 | abs(x=1) }}":                 "abs() takes no keyword arguments",
	} {
		if _, err := Render(src, v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	got, err := Render("{{ [3, 1] | sort(reverse=true) | join(d='-') }} {{ 'x' | default(boolean=true) }}", v)
	if err != nil || got != "3-1 x" {
		t.Errorf("keywords the filters take: %s, %v", Repr(got), err)
	}
}

// TestCaseTests: lower and upper test Python's str() of any value, with
// Python's rules for what is cased.
func TestCaseTests(t *testing.T) {
	v := NewVars(map[string]any{})
	got, err := Render("{{ [['a'] is lower, {'a': 1} is lower, 'ß' is lower, 'ᾈ' is upper, 'ABC1' is upper, '1' is lower, 'ª' is lower, none is lower] }}", v)
	want := []any{true, true, true, false, true, false, true, false}
	if err != nil || !strictEqual(got, want) {
		t.Errorf("got %s, %v; want %s", Repr(got), err, Repr(want))
	}
}

// TestCaseFilters: upper, lower, capitalize and title map case as
// Python and Jinja do: Unicode's full mappings, title case for
// capitalize's first letter, and title's words split only at blanks,
// hyphens and opening brackets.
func TestCaseFilters(t *testing.T) {
	v := NewVars(map[string]any{})
	got, err := Render("{{ ['a.b_c' | title, 'hello world-foo (bar) <q' | title, 'ǆa' | capitalize, 'ßa' | capitalize, 'straße' | upper, 'ΣΑΣ' | lower, 'straße'.upper()] }}", v)
	want := []any{"A.b_c", "Hello World-Foo (Bar) <Q", "ǅa", "Ssa", "STRASSE", "σας", "STRASSE"}
	if err != nil || !strictEqual(got, want) {
		t.Errorf("got %s, %v; want %s", Repr(got), err, Repr(want))
	}
}

// TestFilterAttributes: sort takes several comma-separated attributes
// (its key is their values in order), and an item that lacks the
// attribute fails sort, join, sum, min, max and groupby as an undefined
// value fails, where tender used to read it as None.
func TestFilterAttributes(t *testing.T) {
	v := NewVars(map[string]any{"u": []any{
		map[string]any{"a": 2, "b": 1, "c": "x"}, map[string]any{"a": 1, "b": 2, "c": "y"}, map[string]any{"a": 1, "b": 1, "c": "z"}}})
	got, err := Render("{{ u | sort(attribute='a,b') | map(attribute='c') | join }} {{ u | sort(attribute='a,b', reverse=true) | map(attribute='c') | join }} {{ (u | max(attribute='b')).c }}", v)
	if err != nil || got != "zyx xyz y" {
		t.Errorf("got %s, %v", Repr(got), err)
	}
	for _, src := range []string{"{{ u | sort(attribute='nope') }}", "{{ u | join(',', attribute='nope') }}", "{{ u | sum(attribute='nope') }}",
		"{{ u | max(attribute='nope') }}", "{{ u | groupby('nope') }}", "{{ u | sort(attribute='a,nope') }}"} {
		if _, err := Render(src, v); err == nil || !strings.Contains(err.Error(), "has no attribute 'nope'") {
			t.Errorf("%s: %v", src, err)
		}
	}
	if got, err := Render("{{ u | groupby('nope', default='d') | length }}", v); err != nil || got != "1" {
		t.Errorf("groupby with a default: %s, %v", Repr(got), err)
	}
}

// TestJinjaFilterEdges: items and dictsort take hostvars-like mappings
// and items an undefined value (an empty list); dictsort's by is key or
// value; sum refuses a string start and format positional and keyword
// arguments together, as Jinja2 and Python do.
func TestJinjaFilterEdges(t *testing.T) {
	v := NewVars(map[string]any{"d": map[string]any{"b": 1, "a": 2}})
	got, err := Render("{{ nope | items | list }}|{{ d | dictsort(by='value') | map('first') | join }}", v)
	if err != nil || got != "[]|ba" {
		t.Errorf("got %s, %v", Repr(got), err)
	}
	for src, want := range map[string]string{
		"{{ d | dictsort(by='nope') }}":     `You can only sort by either "key" or "value"`,
		"{{ ['a', 'b'] | sum(start='') }}":  "sum() can't sum strings",
		"{{ '%s %(a)s' | format(1, a=2) }}": "can't handle positional and keyword arguments at the same time",
		"{{ [1] | items }}":                 "Can only get item pairs from a mapping.",
	} {
		if _, err := Render(src, v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}
