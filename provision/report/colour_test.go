package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
)

// TestTextColour: coloured output is byte for byte ansible-playbook's
// (2.14, ANSIBLE_FORCE_COLOR=1): each line of a result painted on its
// own, the recap's host name painted then padded, unreachable counts in
// bright red, rescued in green, ignored and warnings in bright purple.
func TestTextColour(t *testing.T) {
	var b bytes.Buffer
	ev := Text(&b, true)
	ev(provision.Event{Kind: provision.Warning, Msg: "w"})
	ev(provision.Event{Kind: provision.HostResult, Host: "h1", Module: "debug", Traits: tasks.Traits{Shows: true}, Status: provision.StatusOK, Verbose: true, Indent: true, Result: map[string]any{"msg": "a"}})
	ev(provision.Event{Kind: provision.PlaybookEnd, Recap: &provision.Recap{Hosts: []string{"h1", "h2"}, Stats: map[string]*provision.Stats{
		"h1": {OK: 6, Changed: 1, Skipped: 1, Rescued: 1, Ignored: 2},
		"h2": {OK: 1, Unreachable: 1},
	}}})
	want := "\x1b[1;35m[WARNING]: w\x1b[0m\n" +
		"\x1b[0;32mok: [h1] => {\x1b[0m\n\x1b[0;32m    \"msg\": \"a\"\x1b[0m\n\x1b[0;32m}\x1b[0m\n" +
		"\nPLAY RECAP *********************************************************************\n" +
		"\x1b[0;33mh1\x1b[0m                         : \x1b[0;32mok=6   \x1b[0m \x1b[0;33mchanged=1   \x1b[0m unreachable=0    failed=0    " +
		"\x1b[0;36mskipped=1   \x1b[0m \x1b[0;32mrescued=1   \x1b[0m \x1b[1;35mignored=2   \x1b[0m\n" +
		"\x1b[0;31mh2\x1b[0m                         : \x1b[0;32mok=1   \x1b[0m changed=0    \x1b[1;31munreachable=1   \x1b[0m failed=0    " +
		"skipped=0    rescued=0    ignored=0   \n\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
		for i, l := range strings.Split(got, "\n") {
			t.Logf("%d %q", i, l)
		}
	}
}
