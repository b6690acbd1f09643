package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// limitVars are the variables of the memory tests: values that exist
// before the evaluation, so that only what a template builds from them
// is counted.
func limitVars() map[string]any {
	words := make([]any, 20000)
	for i := range words {
		words[i] = fmt.Sprintf("word-%05d", i)
	}
	data := map[string]any{}
	for i := range 5000 {
		data[fmt.Sprintf("k%05d", i)] = "vvvvvvvvvv"
	}
	lists := make([]any, 2000)
	for i := range lists {
		lists[i] = []any{i}
	}
	big := make([]any, 100)
	for i := range big {
		big[i] = strings.Repeat("b", 10000)
	}
	long := make([]any, 2*itemScan)
	for i := range long {
		long[i] = fmt.Sprintf("%01000d", i)
	}
	return map[string]any{
		"words": words,
		"data":  data,
		"lists": lists,
		"big":   big,
		"long":  long,
		"text":  strings.Repeat("a", 100000),
		"lines": strings.Repeat("line\n", 10000),
		"prose": strings.Repeat("aaaa ", 20000),
		"json":  "[[" + strings.Repeat(`"abcdefghij",`, 10000) + `"z"]]`,
		// rendered when read, by an evaluation that shares the budget
		"lazy":  "{{ 'x' * 100000 }}",
		"other": &Vars{Layers: []map[string]any{{"lazy": "{{ 'x' * 100000 }}"}}},
	}
}

// renderLimited renders src over limitVars under lim.
func renderLimited(src string, lim Limits) (any, error) {
	v := NewVars(limitVars())
	v.Env = &Env{Limits: lim}
	return Render(src, v)
}

// Each kind of operation that builds a string, a list or a dict counts
// against the memory limit: each template below builds a few megabytes
// with one kind (in a loop), from values that take no memory of the
// evaluation's, and fails past 1 MiB, while the default limit lets it
// through.
func TestMemoryLimitCountsEveryBuilder(t *testing.T) {
	t.Parallel()
	loop := func(n int, body string) string {
		return fmt.Sprintf("{%% for i in range(%d) %%}{{ %s }}{%% endfor %%}", n, body)
	}
	for name, src := range map[string]string{
		"string concatenation":  "{% set ns = namespace(s='') %}{% for i in range(2000) %}{% set ns.s = ns.s ~ 'xxxxxxxxxx' %}{% endfor %}{{ ns.s | length }}",
		"string multiplication": loop(30, "('a' * 100000) | length"),
		"list concatenation":    "{% set ns = namespace(l=[]) %}{% for i in range(1000) %}{% set ns.l = ns.l + [i] %}{% endfor %}{{ ns.l | length }}",
		"list literal":          "{% for i in range(20000) %}{% set l = [i, i, i, i, i, i, i, i] %}{% endfor %}",
		"dict literal":          "{% for i in range(20000) %}{% set d = {'a': i, 'b': i} %}{% endfor %}",
		"slice":                 loop(30, "text[1:] | length"),
		"string method":         loop(30, "text.upper() | length"),
		"join":                  loop(20, "words | join(',') | length"),
		"to_json":               loop(20, "data | to_json | length"),
		"to_nice_json":          loop(20, "data | to_nice_json | length"),
		"b64encode":             loop(20, "text | b64encode | length"),
		"regex_replace":         loop(20, "text | regex_replace('[a]', 'bb') | length"),
		"replace":               loop(20, "text | replace('a', 'bb') | length"),
		"format":                loop(20, "'%s%s' | format(text, text) | length"),
		"indent":                loop(20, "lines | indent(8) | length"),
		"wordwrap":              loop(15, "prose | wordwrap(5) | length"),
		"map":                   loop(20, "words | map('upper') | length"),
		"select":                loop(8, "words | select('match', 'w') | length"),
		"dict2items":            loop(40, "data | dict2items | length"),
		"range":                 loop(20, "range(10000) | length"),
		"from_json, whole":      loop(20, "json | from_json | length"),
		"sum":                   "{{ lists | sum(start=[]) | length }}",
		"template output":       loop(30, "text"),
		"variable rendered":     loop(30, "lazy | length"),
		"scope's variable":      loop(30, "other.lazy | length"),
	} {
		_, err := renderLimited(src, Limits{MaxBytes: 1 << 20})
		if !errors.Is(err, ErrMemoryLimit) {
			t.Errorf("%s: err = %v, want the memory limit", name, err)
		}
		if _, err := renderLimited(src, Limits{}); err != nil {
			t.Errorf("%s under the default limits: %v", name, err)
		}
	}
}

// What an operation passes on (a variable, an item, a substring, its
// operand) is not counted again; of a long list, the first and last
// items are still seen as its own.
func TestMemoryLimitSkipsWhatIsPassedOn(t *testing.T) {
	t.Parallel()
	src := "{% for i in range(200) %}{{ (big | first) | length }}{{ big | default([]) | length }}" +
		"{{ text | trim | length }}{{ data.k00001 | length }}{{ (big if i else []) | length }}" +
		"{{ text | string | length }}{{ big[5] | length }}{{ (text ~ '') | length }}" +
		"{{ (long | last) | length }}{% endfor %}"
	if _, err := renderLimited(src, Limits{MaxBytes: 128 << 10}); err != nil {
		t.Error(err)
	}
}

// The error says which limit, its value, and where in which template.
func TestMemoryLimitError(t *testing.T) {
	t.Parallel()
	src := "{% for i in range(30) %}{{ ('a' * 100000) | length }}{% endfor %}"
	_, err := renderLimited(src, Limits{MaxBytes: 1 << 20})
	var pe *Error
	if !errors.As(err, &pe) || pe.Src != src || pe.Col != strings.Index(src, "*")+1 {
		t.Fatalf("err = %#v, want an *Error at the multiplication of %q", err, src)
	}
	if msg := err.Error(); !strings.Contains(msg, "more than 1 MiB") || !strings.Contains(msg, "memory limit") {
		t.Errorf("message %q does not name the limit", msg)
	}
	if _, err := renderLimited(src, Limits{MaxBytes: -1}); err != nil {
		t.Errorf("without a memory limit: %v", err)
	}
}

// Every step reads the clock (every 32nd step, in fact): past MaxTime
// the evaluation fails naming the limit.
func TestTimeLimit(t *testing.T) {
	t.Parallel()
	src := "{% for i in range(100) %}{{ i }}{% endfor %}"
	_, err := renderLimited(src, Limits{MaxTime: time.Nanosecond})
	if !errors.Is(err, ErrTimeLimit) || !strings.Contains(err.Error(), "more than 1ns") {
		t.Errorf("err = %v, want the time limit", err)
	}
	e, err := Parse("range(100) | map('string') | join(',')")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Eval(&Vars{Env: &Env{Limits: Limits{MaxTime: time.Nanosecond}}}); !errors.Is(err, ErrTimeLimit) {
		t.Errorf("expression: err = %v, want the time limit", err)
	}
	for _, lim := range []Limits{{}, {MaxTime: -1}} {
		if _, err := renderLimited(src, lim); err != nil {
			t.Errorf("%+v: %v", lim, err)
		}
	}
}

// TestTimeLimitLeavesOutLookups: the time a lookup waits for the
// controller (here a pipe lookup's command) is not the template's own
// work and does not count against MaxTime; the template's own work
// around it still does.
func TestTimeLimitLeavesOutLookups(t *testing.T) {
	t.Parallel()
	render := func(src string, lim Limits) (any, error) {
		v := NewVars(limitVars())
		v.Env = &Env{Limits: lim, AllowCommands: true}
		return Render(src, v)
	}
	lim := Limits{MaxTime: 50 * time.Millisecond}
	if got, err := render("{{ lookup('pipe', 'sleep 0.2; echo slow') }}{% for i in range(200) %}{% endfor %}", lim); err != nil || Str(got) != "slow" {
		t.Fatalf("a slow pipe lookup: %v, %v", got, err)
	}
	src := "{{ lookup('pipe', 'sleep 0.2; echo slow') }}{% for i in range(100) %}{{ i }}{% endfor %}"
	if _, err := render(src, Limits{MaxTime: time.Nanosecond}); !errors.Is(err, ErrTimeLimit) {
		t.Fatalf("the template's own work after a lookup: %v, want the time limit", err)
	}
}
