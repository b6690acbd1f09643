package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
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
