package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
)

// TestTextVerbosity: -vv adds the playbook banner and each task's path
// (absolute, with its line, as ansible-playbook prints it); -vvv adds
// the connections hosts open; below, none of them shows.
func TestTextVerbosity(t *testing.T) {
	events := []provision.Event{
		{Kind: provision.PlaybookStart, Path: "site.yml", Msg: "1 plays in site.yml"},
		{Kind: provision.PlayStart, Play: "web"},
		{Kind: provision.TaskStart, Task: "install", Path: "site.yml:4:7"},
		{Kind: provision.Connecting, Host: "web1", Msg: "ESTABLISH SSH CONNECTION FOR USER: bob"},
	}
	abs, _ := filepath.Abs("site.yml")
	for v, want := range map[int][]string{
		1: nil,
		2: {"\nPLAYBOOK: site.yml ***", "\n1 plays in site.yml\n", "\ntask path: " + abs + ":4\n"},
		3: {"\nPLAYBOOK: site.yml ***", "\ntask path: " + abs + ":4\n", "\n<web1> ESTABLISH SSH CONNECTION FOR USER: bob\n"},
	} {
		var b bytes.Buffer
		ev := TextVerbose(&b, false, v)
		for _, e := range events {
			ev(e)
		}
		out := b.String()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("-v×%d: output lacks %q:\n%s", v, w, out)
			}
		}
		if v < 3 && strings.Contains(out, "ESTABLISH") {
			t.Errorf("-v×%d shows connections:\n%s", v, out)
		}
		if v < 2 && (strings.Contains(out, "PLAYBOOK:") || strings.Contains(out, "task path:")) {
			t.Errorf("-v×%d shows paths:\n%s", v, out)
		}
	}
}

// TestVerboseSkipsAndFailures: from -v a skip shows its result (debug's
// cleaned, failed and skipped left out, a loop's items not repeated);
// from -vvv a failure is indented like every result (recorded from
// ansible-playbook 2.14 -v and -vvv).
func TestVerboseSkipsAndFailures(t *testing.T) {
	skip := map[string]any{"changed": false, "skipped": true, "skip_reason": "Conditional result was False"}
	for _, c := range []struct {
		v    int
		e    provision.Event
		want string
	}{
		{1, provision.Event{Host: "h", Module: "debug", Traits: tasks.Traits{Shows: true}, Status: provision.StatusSkipped, Result: skip}, "skipping: [h] => {}\n"},
		{1, provision.Event{Host: "h", Module: "command", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusSkipped, Result: skip},
			`skipping: [h] => {"changed": false, "skip_reason": "Conditional result was False"}` + "\n"},
		{1, provision.Event{Host: "h", Module: "command", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusSkipped, LoopDone: true,
			Result: map[string]any{"changed": false, "skipped": true, "msg": "All items skipped", "results": []any{skip}}},
			`skipping: [h] => {"changed": false, "msg": "All items skipped"}` + "\n"},
		{0, provision.Event{Host: "h", Module: "command", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusSkipped, Result: skip}, "skipping: [h]\n"},
		{3, provision.Event{Host: "h", Module: "fail", Status: provision.StatusFailed, Result: map[string]any{"changed": false, "failed": true, "msg": "boom"}},
			"fatal: [h]: FAILED! => {\n    \"changed\": false,\n    \"msg\": \"boom\"\n}\n"},
	} {
		var b bytes.Buffer
		c.e.Kind = provision.HostResult
		TextVerbose(&b, false, c.v)(c.e)
		if b.String() != c.want {
			t.Errorf("-v×%d %s %s: got\n%q\nwant\n%q", c.v, c.e.Module, c.e.Status, b.String(), c.want)
		}
	}
}
