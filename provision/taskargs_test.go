package provision

import (
	"testing"

	"github.com/tender-sh/tender/playbooks"
)

// TestShownArgs: a task's arguments are shown unless it or an enclosing
// block has no_log, or an argument is not a plain value.
func TestShownArgs(t *testing.T) {
	plainTask := &playbooks.Task{Args: map[string]any{"msg": "hi", "n": []any{1, map[string]any{"k": true}}}}
	if got := shownArgs(plainTask); got["msg"] != "hi" || len(got) != 2 {
		t.Errorf("plain args: %v", got)
	}
	noLog := &playbooks.Task{Args: map[string]any{"password": "x"}}
	noLog.NoLog = playbooks.Bool{Set: true, Expr: "{{ hide }}"}
	if got := shownArgs(noLog); got != nil {
		t.Errorf("no_log task: %v", got)
	}
	block := &playbooks.Task{Kind: playbooks.KindBlock}
	block.NoLog = playbooks.Bool{Set: true, Value: true}
	inner := &playbooks.Task{Args: map[string]any{"password": "x"}, Parent: block}
	if got := shownArgs(inner); got != nil {
		t.Errorf("task in a no_log block: %v", got)
	}
	type secret struct{ s string }
	odd := &playbooks.Task{Args: map[string]any{"v": []any{secret{"x"}}}}
	if got := shownArgs(odd); got != nil {
		t.Errorf("non-plain value: %v", got)
	}
}
