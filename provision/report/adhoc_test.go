package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
)

// TestAdHocLayouts checks the forms of the ansible command's output that
// the recordings of cmd/tender do not reach: colours, -vvv, float rc,
// module_stderr, loop items and where warnings go.
func TestAdHocLayouts(t *testing.T) {
	res := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name string
		opts AdHocOptions
		e    provision.Event
		want string
	}{
		{"json changed", AdHocOptions{}, provision.Event{Host: "h", Module: "file", Status: provision.StatusChanged,
			Result: res("changed", true, "invocation", res("module_args", res()), "_ansible_no_log", false, "path", "/x")},
			"h | CHANGED => {\n    \"changed\": true,\n    \"path\": \"/x\"\n}\n"},
		{"vvv keeps invocation", AdHocOptions{Verbosity: 3}, provision.Event{Host: "h", Module: "ping", Status: provision.StatusOK,
			Result: res("changed", false, "invocation", res("module_args", res("data", "pong")))},
			"h | SUCCESS => {\n    \"changed\": false,\n    \"invocation\": {\n        \"module_args\": {\n            \"data\": \"pong\"\n        }\n    }\n}\n"},
		{"float rc", AdHocOptions{}, provision.Event{Host: "h", Module: "shell", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusChanged,
			Result: res("changed", true, "rc", float64(0), "stdout", "out")},
			"h | CHANGED | rc=0 >>\nout\n"},
		{"no rc", AdHocOptions{}, provision.Event{Host: "h", Module: "raw", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusFailed,
			Result: res("msg", "boom")},
			"h | FAILED | rc=-1 >>\nboom\n"},
		{"module_stderr is JSON", AdHocOptions{}, provision.Event{Host: "h", Module: "command", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusFailed,
			Result: res("module_stderr", "x", "failed", true)},
			"h | FAILED! => {\n    \"module_stderr\": \"x\"\n}\n"},
		{"async command is JSON", AdHocOptions{OneLine: true}, provision.Event{Host: "h", Module: "command", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusChanged,
			Result: res("ansible_job_id", "j1.2", "changed", true, "finished", 0)},
			"h | CHANGED => {\"ansible_job_id\": \"j1.2\",\"changed\": true,\"finished\": 0}\n"},
		{"skipped", AdHocOptions{}, provision.Event{Host: "h", Module: "command", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusSkipped}, "h | SKIPPED\n"},
		// Recorded from ansible 2.14 with ANSIBLE_FORCE_COLOR=1: each line painted.
		{"colour", AdHocOptions{Color: true}, provision.Event{Host: "h", Module: "command", Traits: tasks.Traits{TextOutput: true}, Status: provision.StatusChanged,
			Result: res("changed", true, "rc", 0, "stdout", "")},
			"\x1b[0;33mh | CHANGED | rc=0 >>\x1b[0m\n\x1b[0;33m\x1b[0m\n"},
		{"unreachable colour", AdHocOptions{Color: true, OneLine: true}, provision.Event{Host: "h", Module: "ping", Status: provision.StatusUnreachable,
			Result: res("msg", "refused", "unreachable", true)},
			"\x1b[1;31mh | UNREACHABLE!: refused\x1b[0m\n"},
		{"loop item", AdHocOptions{}, provision.Event{Host: "h", Module: "ping", Status: provision.StatusOK, IsItem: true, Result: res()}, ""},
		{"diff first", AdHocOptions{}, provision.Event{Host: "h", Module: "file", Status: provision.StatusChanged, Diff: "--- a\n+++ b\n",
			Result: res("changed", true)},
			"--- a\n+++ b\n\nh | CHANGED => {\n    \"changed\": true\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			c.e.Kind = provision.HostResult
			AdHoc(&b, c.opts)(c.e)
			if b.String() != c.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), c.want)
			}
		})
	}
}

// TestAdHocWarnings: warnings go to the Warnings writer when there is one,
// and nothing else is printed for banners and the recap.
func TestAdHocWarnings(t *testing.T) {
	var out, errOut bytes.Buffer
	ev := AdHoc(&out, AdHocOptions{Warnings: &errOut})
	ev(provision.Event{Kind: provision.PlayStart, Play: "p", Hosts: []string{"h"}})
	ev(provision.Event{Kind: provision.TaskStart, Task: "t"})
	ev(provision.Event{Kind: provision.Warning, Msg: "careful"})
	ev(provision.Event{Kind: provision.RunEnd, Recap: &provision.Recap{}})
	if out.String() != "" {
		t.Errorf("stdout: %q, want nothing", out.String())
	}
	if errOut.String() != "[WARNING]: careful\n" {
		t.Errorf("warnings: %q", errOut.String())
	}
	out.Reset()
	AdHoc(&out, AdHocOptions{})(provision.Event{Kind: provision.Warning, Msg: "careful"})
	if !strings.Contains(out.String(), "[WARNING]: careful") {
		t.Errorf("without a Warnings writer, warnings go to w: %q", out.String())
	}
}

// Live output lines (--live) print as HOST | line (stderr's as HOST
// stderr | line), in the ad-hoc and the playbook layouts, the latter
// under the task's banner; JSON tells the stream.
func TestLiveOutputLines(t *testing.T) {
	var a bytes.Buffer
	AdHoc(&a, AdHocOptions{})(provision.Event{Kind: provision.Output, Host: "web1", Msg: "step 1"})
	AdHoc(&a, AdHocOptions{})(provision.Event{Kind: provision.Output, Host: "web1", Msg: "warn", Stderr: true})
	if a.String() != "web1 | step 1\nweb1 stderr | warn\n" {
		t.Errorf("ad-hoc: %q", a.String())
	}
	var p bytes.Buffer
	ev := Text(&p, false)
	ev(provision.Event{Kind: provision.TaskStart, Task: "build"})
	ev(provision.Event{Kind: provision.Output, Host: "web1", Task: "build", Msg: "step 1"})
	if !strings.HasSuffix(p.String(), "TASK [build] "+strings.Repeat("*", 67)+"\nweb1 | step 1\n") {
		t.Errorf("playbook: %q", p.String())
	}
	for stderr, want := range map[bool]string{false: "stdout", true: "stderr"} {
		if got := jsonEvent(provision.Event{Kind: provision.Output, Host: "web1", Msg: "x", Stderr: stderr})["stream"]; got != want {
			t.Errorf("JSON stream %v, want %s", got, want)
		}
	}
}
