package expr

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/internal/pyre"
)

// Jinja's \w (wordcount, urlize) is Python's: letters, digits and "_",
// not combining marks nor other connectors.
func TestWordIsPythons(t *testing.T) {
	t.Parallel()
	v := NewVars(map[string]any{"s": "x\u0301y a\u203fb"})
	if got, err := Render("{{ s | wordcount }}", v); err != nil || Str(got) != "4" {
		t.Fatalf("wordcount = %v, %v; Python's is 4", got, err)
	}
}

// A catastrophic pattern fails the evaluation with an error naming it,
// within the search's bound, and no later than the template's time limit.
func TestCatastrophicRegexIsBounded(t *testing.T) {
	t.Parallel()
	v := NewVars(map[string]any{"s": strings.Repeat("a", 40) + "!"})
	v.Env = &Env{Limits: Limits{MaxTime: 300 * time.Millisecond}}
	start := time.Now()
	_, err := Render(`{{ s | regex_search("^(a+)+$") }}`, v)
	if err == nil || !(errors.Is(err, ErrTimeLimit) || errors.Is(err, pyre.ErrTimeout)) {
		t.Fatalf("err = %v, want a time limit's", err)
	}
	if d := time.Since(start); d > pyre.DefaultTimeout+500*time.Millisecond {
		t.Errorf("took %v", d)
	}
	v.Env = &Env{}
	_, err = Render(`{{ s | regex_replace("^(a+)+$", "x") }}`, v)
	if !errors.Is(err, pyre.ErrTimeout) || !strings.Contains(err.Error(), "^(a+)+$") {
		t.Fatalf("err = %v, want the search's time bound naming the pattern", err)
	}
}
