package pyre

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A catastrophic pattern on hostile text fails with ErrTimeout, naming
// the pattern, soon after its bound, where Python would run for years.
func TestTimeout(t *testing.T) {
	t.Parallel()
	re, err := Compile(`^(a+)+$`, Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = re.Search(strings.Repeat("a", 64) + "!")
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), `"^(a+)+$"`) {
		t.Fatalf("err = %v, want ErrTimeout naming the pattern", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if DefaultTimeout != time.Second {
		t.Errorf("DefaultTimeout is %v; docs say 1s", DefaultTimeout)
	}
}

// A search that would keep more than MaxBacktrack positions fails with
// ErrBacktrackLimit; one that keeps fewer runs.
func TestBacktrackLimit(t *testing.T) {
	t.Parallel()
	// No time bound: on a loaded machine the second's bound could stop
	// the search before the backtracking bound this test is about.
	re, _ := Compile(`(a|b)*c`, Options{Timeout: -1})
	if m, err := re.Search(strings.Repeat("ab", 100000) + "c"); err != nil || m == nil {
		t.Fatalf("200,000 characters: %v, %v", m, err)
	}
	_, err := re.Search(strings.Repeat("ab", 1000000) + "c")
	if !errors.Is(err, ErrBacktrackLimit) || !strings.Contains(err.Error(), `"(a|b)*c"`) {
		t.Fatalf("err = %v, want ErrBacktrackLimit", err)
	}
}

// Patterns nested deeper than Python's parser goes are refused.
func TestNesting(t *testing.T) {
	t.Parallel()
	if _, err := Compile(strings.Repeat("(", 300)+strings.Repeat(")", 300), Options{}); err != nil {
		t.Fatal(err)
	}
	_, err := Compile(strings.Repeat("(", 100000)+strings.Repeat(")", 100000), Options{})
	if err == nil || !strings.Contains(err.Error(), "too deeply nested") {
		t.Fatalf("err = %v", err)
	}
}

// An error of Each's function stops the search at once, and is Each's.
func TestEachStops(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	calls := 0
	re, _ := Compile(`a|`, Options{})
	err := re.Each(strings.Repeat("ab", 1<<20), func([]int) error {
		if calls++; calls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 3 {
		t.Errorf("err %v after %d calls, want stop after 3", err, calls)
	}
}

// SubnCheck reports the text it went through to check, stops with
// check's error, and fails with ErrTooLarge past its bound, without
// going through the rest of the text.
func TestSubnCheck(t *testing.T) {
	t.Parallel()
	re, _ := Compile(`a`, Options{})
	tpl, _ := ParseTemplate("bb", re)
	src := []byte(strings.Repeat("a", 1000))
	seen := 0
	out, n, err := tpl.SubnCheck(re, src, 0, func(k int) error { seen += k; return nil })
	if err != nil || n != 1000 || string(out) != strings.Repeat("b", 2000) || seen < len(src) {
		t.Errorf("SubnCheck: %d replacements, %d bytes out, %d bytes seen, %v", n, len(out), seen, err)
	}
	stop := errors.New("stop")
	calls := 0
	_, n, err = tpl.SubnCheck(re, src, 0, func(int) error {
		if calls++; calls == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 10 || n != 9 {
		t.Errorf("stopped SubnCheck: %v after %d checks, %d replacements", err, calls, n)
	}
	_, n, err = tpl.SubnCheck(re, src, 100, nil)
	if !errors.Is(err, ErrTooLarge) || n > 51 {
		t.Errorf("bounded SubnCheck: %v after %d replacements, want ErrTooLarge after 51", err, n)
	}
}

// Offsets are bytes of the text, whatever its characters: multi-byte
// UTF-8, invalid bytes (one U+FFFD each), and bytes patterns.
func TestOffsets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pattern, text string
		bytes         bool
		want          [2]int
	}{
		{`(?<=é)x`, "ééx", false, [2]int{4, 5}},
		{`\x{fffd}?b`, "a\xffb", false, [2]int{1, 3}},
		{`.b`, "a\xffb", false, [2]int{1, 3}},
		{`..b`, "éb", true, [2]int{0, 3}},
		{`😀+`, "a😀😀", false, [2]int{1, 9}},
	} {
		re, err := Compile(strings.Replace(c.pattern, `\x{fffd}`, "\ufffd", 1), Options{Bytes: c.bytes})
		if err != nil {
			t.Fatal(err)
		}
		m, err := re.Search(c.text)
		if err != nil || m == nil || m[0] != c.want[0] || m[1] != c.want[1] {
			t.Errorf("%s on %q: %v %v, want %v", c.pattern, c.text, m, err, c.want)
		}
	}
}

// A pattern that is plain text is searched as text, with the engine's
// answers: the same matches as the same pattern in a group.
func TestLiteralFastPath(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]string{{"aa", "aaaaa"}, {"é", "céé\xffé"}, {`a\.b`, "a.b a.b"}, {"ab", ""}, {"\u00e9", "e\u0301"}} {
		lit, _ := Compile(c[0], Options{})
		eng, _ := Compile("(?:"+c[0]+")", Options{})
		if lit.literal == "" || eng.literal != "" {
			t.Fatalf("%q: literal %q, grouped %q", c[0], lit.literal, eng.literal)
		}
		var a, b [][2]int
		lit.Each(c[1], func(m []int) error { a = append(a, [2]int{m[0], m[1]}); return nil })
		eng.Each(c[1], func(m []int) error { b = append(b, [2]int{m[0], m[1]}); return nil })
		if len(a) != len(b) || (len(a) > 0 && a[len(a)-1] != b[len(b)-1]) {
			t.Errorf("%q on %q: %v, engine %v", c[0], c[1], a, b)
		}
	}
	if re, _ := Compile("a", Options{IgnoreCase: true}); re.literal != "" {
		t.Error("IGNORECASE searched as text")
	}
}
