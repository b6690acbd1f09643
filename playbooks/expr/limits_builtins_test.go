package expr

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The template of issue 26: 300 times, 8,000,000 characters built and
// regex_replace'd. It ran until killed at 1.1 GB; now it fails on the
// memory limit, having allocated little more than the limit.
func TestHugeReplaceLoopIsBounded(t *testing.T) {
	src := "{% for i in range(300) %}{{ ('a' * 8000000) | regex_replace('a','b') | length }}{% endfor %}"
	v := NewVars(map[string]any{})
	v.Env = &Env{}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Render(src, v)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrMemoryLimit) && !errors.Is(err, ErrTimeLimit) {
		t.Fatalf("err = %v, want a limit's", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*DefaultMaxBytes {
		t.Errorf("allocated %d MiB, want at most twice the limit", alloc>>20)
	}
}

// bigLists are lists of n one-item lists, which have no hash: unique and
// the set filters compare them each with each.
func bigLists(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = []any{i}
	}
	return out
}

// The filters that can run long on large input check the budget as they
// go: with the Env's Done closed, or the time limit past, each stops with
// that error instead of finishing (some would take minutes).
func TestFiltersStopInside(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("a", 1<<20)
	words := strings.Repeat("a ", 1<<19)
	strs := make([]any, 100000)
	ints := make([]any, 100000)
	for i := range strs {
		strs[i], ints[i] = "xx", (i*7919)%100003
	}
	type call struct {
		filter string
		x      any
		args   []any
		kw     map[string]any
	}
	calls := map[string]call{
		"regex_replace":         {"regex_replace", text, []any{"[ab]", "b"}, nil},
		"regex_replace literal": {"regex_replace", text, []any{"a", "b"}, nil},
		"regex_replace groups":  {"regex_replace", text, []any{"(a)", `\1b`}, nil},
		"regex_findall":         {"regex_findall", text, []any{"[ab]"}, nil},
		"wordcount":             {"wordcount", words, nil, nil},
		"replace":               {"replace", text, []any{"a", "b"}, nil},
		"join":                  {"join", strs, nil, nil},
		"sort":                  {"sort", ints, nil, nil},
		"unique":                {"unique", bigLists(1000), nil, nil},
		"intersect":             {"intersect", bigLists(1000), []any{bigLists(1000)}, nil},
		"sum":                   {"sum", bigLists(1000), nil, map[string]any{"start": []any{}}},
		"password_hash":         {"password_hash", "secret", []any{"sha512", "salt"}, map[string]any{"rounds": 999999999}},
		"combine":               {"combine", map[string]any{"a": bigLists(1000)}, []any{map[string]any{"a": bigLists(1001)[1:]}}, map[string]any{"list_merge": "append_rp"}},
	}
	closed := make(chan struct{})
	close(closed)
	for name, c := range calls {
		for _, stop := range []struct {
			b    *budget
			want error
		}{
			{&budget{done: closed}, ErrInterrupted},
			{&budget{maxTime: time.Nanosecond, start: time.Now()}, ErrTimeLimit},
		} {
			_, err := applyFilter(&Env{budget: stop.b}, c.filter, false, c.x, c.args, c.kw)
			if !errors.Is(err, stop.want) {
				t.Errorf("%s: err = %v, want %v", name, err, stop.want)
			}
		}
	}
	// str methods: replace and join
	b := &budget{done: closed}
	if _, err := callMethod(b, text, "replace", []any{"a", "b"}, nil); !errors.Is(err, ErrInterrupted) {
		t.Errorf("str.replace: err = %v", err)
	}
	if _, err := callMethod(b, ",", "join", []any{strs}, nil); !errors.Is(err, ErrInterrupted) {
		t.Errorf("str.join: err = %v", err)
	}
}

// Cancelling the evaluation (Ctrl-C) stops a regex_replace under way
// over a long text, which would take seconds to finish.
func TestRegexReplaceInterrupted(t *testing.T) {
	t.Parallel()
	done := make(chan struct{})
	v := NewVars(map[string]any{})
	v.Env = &Env{Done: done}
	time.AfterFunc(20*time.Millisecond, func() { close(done) })
	_, err := Render("{{ ('a' * 16000000) | regex_replace('[ab]', 'b') | length }}", v)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
}

// Filters that built their result a piece at a time by concatenation took
// quadratic time and memory on long input (indent, path_join, the
// printf-style format's flags), and some built results past the largest
// string; combinations tried every subset. They stay linear, refuse what
// would pass 16 MiB, and allocate little for what they return.
func TestLongInputsStayLinear(t *testing.T) {
	mib := strings.Repeat("p", 1<<20)
	parts := make([]any, 20)
	for i := range parts {
		parts[i] = mib
	}
	v := NewVars(map[string]any{
		"lines": strings.Repeat("line\n", 100000),
		"parts": parts,
		"dirs":  toList(strings.Split(strings.Repeat("d/", 20000), "/")),
		"flags": "%" + strings.Repeat("-", 100000) + "s",
		"nl":    strings.Repeat("\n", 1000000),
	})
	v.Env = &Env{}
	for src, want := range map[string]string{
		"{{ lines | indent(2) | length }}":                  "699998",
		"{{ dirs | path_join | length }}":                   "40000",
		"{{ flags | format('x') }}":                         "x",
		"{{ range(40) | combinations(38) | length }}":       "780",
		"{{ nl | indent(1000, blank=true) }}":               "indented string too large",
		"{{ parts | path_join }}":                           "joined path too large",
		"{{ ('x' * 5000) | password_hash('sha512') }}":      "maximum allowed size",
		"{{ 'x' | password_hash('sha512', salt_size=20) }}": "invalid salt size",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := Render(src, v)
		runtime.ReadMemStats(&after)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(Str(got), want) {
			t.Errorf("%s = %.80q, want %q", src, Str(got), want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%s allocated %d MiB", src, alloc>>20)
		}
	}
}
