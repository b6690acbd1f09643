package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbauerster/mpb/v8"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
)

// syncBuffer is a bytes.Buffer that mpb's goroutine and the test can
// share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until the display has drawn a line containing want.
func waitFor(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the display never showed %q; it drew:\n%s", want, out.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestProgressBars feeds a run's events to the display and reads the bars
// it draws: hosts that reported of those still in the play, the task's
// and the play's counts, a host that went unreachable leaving the play.
func TestProgressBars(t *testing.T) {
	var stdout bytes.Buffer
	bars := &syncBuffer{}
	pg := newProgress(&stdout, func(w io.Writer) func(provision.Event) { return report.Text(w, false) },
		mpb.WithOutput(bars), mpb.WithWidth(120), mpb.WithAutoRefresh(), mpb.WithRefreshRate(time.Millisecond))
	ev := func(e provision.Event) { pg.event(e) }

	ev(provision.Event{Kind: provision.PlayStart, Play: "web", Hosts: []string{"a", "b", "c"}})
	ev(provision.Event{Kind: provision.TaskStart, Task: "install"})
	waitFor(t, bars, "PLAY [web] 3 hosts  ok=0 changed=0 failed=0 unreachable=0")
	waitFor(t, bars, " 0/3 hosts ok=0 changed=0 failed=0 unreachable=0")
	ev(provision.Event{Kind: provision.HostResult, Task: "install", Host: "a", Status: provision.StatusChanged})
	ev(provision.Event{Kind: provision.HostResult, Task: "install", Host: "b", Status: provision.StatusOK, IsItem: true})
	waitFor(t, bars, " 1/3 hosts ok=0 changed=1 failed=0 unreachable=0")
	ev(provision.Event{Kind: provision.HostResult, Task: "install", Host: "b", Status: provision.StatusUnreachable})
	waitFor(t, bars, "PLAY [web] 3 hosts (1 out)  ok=0 changed=1 failed=0 unreachable=1")

	ev(provision.Event{Kind: provision.TaskStart, Task: "restart", Handler: true})
	waitFor(t, bars, "HANDLER [restart]")
	waitFor(t, bars, " 0/2 hosts ") // b is out of the play
	ev(provision.Event{Kind: provision.HostResult, Task: "restart", Host: "a", Status: provision.StatusFailed, Ignored: true})
	ev(provision.Event{Kind: provision.HostResult, Task: "restart", Host: "c", Status: provision.StatusSkipped})
	ev(provision.Event{Kind: provision.TaskStart, Task: "after"})
	waitFor(t, bars, " 0/2 hosts ") // an ignored failure keeps a in

	recap := &provision.Recap{}
	ev(provision.Event{Kind: provision.PlaybookEnd, Recap: recap})
	ev(provision.Event{Kind: provision.RunEnd, Recap: recap})
	// The playbook's end removes the bars: the last thing drawn erases them.
	if drawn := bars.String(); !regexp.MustCompile(`\x1b\[\d+A\x1b\[J$`).MatchString(drawn) {
		t.Errorf("the bars were not removed at the end: %q", drawn[max(0, len(drawn)-200):])
	}
	// While the bars were up the text went through the display; after,
	// straight to stdout.
	text := stripBars(bars.String()) + stdout.String()
	for _, want := range []string{"PLAY [web] ***", "TASK [install] ***", "changed: [a]", "fatal: [b]: UNREACHABLE!",
		"RUNNING HANDLER [restart] ***", "...ignoring", "TASK [after] ***"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	if !strings.HasPrefix(stdout.String(), "\nPLAY RECAP ***") {
		t.Errorf("the recap must go straight to stdout, got %q", stdout.String())
	}
}

func TestProgressState(t *testing.T) {
	var s progressState
	s.startPlay(provision.Event{Play: "p", Hosts: []string{"a", "b"}})
	task, total := s.startTask(provision.Event{Task: strings.Repeat("x", 40)})
	if total != 2 || task.name != "TASK ["+strings.Repeat("x", 31)+"…]" {
		t.Fatalf("task %q of %d hosts", task.name, total)
	}
	s.result(provision.Event{Host: "a", Status: provision.StatusFailed})
	s.result(provision.Event{Host: "b", Status: provision.StatusSkipped})
	if got := task.String(); got != "ok=0 changed=0 failed=1 unreachable=0 skipped=1" {
		t.Errorf("task counts %q", got)
	}
	if _, total := s.startTask(provision.Event{Task: "next"}); total != 1 {
		t.Errorf("a failed host must leave the play: %d hosts left", total)
	}
	if got := s.playLine(); got != "PLAY [p] 2 hosts (1 out)  ok=0 changed=0 failed=1 unreachable=0 skipped=1 " {
		t.Errorf("play line %q", got)
	}
}

var reBarLine = regexp.MustCompile(`(?m)^(PLAY|TASK|HANDLER) \[[^\n]*\] [^\n]* hosts[^\n]*ok=\d+[^\n]*\n`)

// stripBars removes the display's bar lines and cursor movements from
// what it drew, leaving the text written through it.
func stripBars(s string) string {
	s = regexp.MustCompile(`\x1b\[\d+A\x1b\[J`).ReplaceAllString(s, "")
	return reBarLine.ReplaceAllString(s, "")
}

// writeLocalPlay writes a one-host local playbook whose output has no
// timing in it, whose first task sleeps for the given seconds.
func writeLocalPlay(t *testing.T, sleep string) (inv, pb string) {
	dir := t.TempDir()
	inv, pb = filepath.Join(dir, "hosts"), filepath.Join(dir, "pb.yml")
	os.WriteFile(inv, []byte("h1 ansible_connection=local\nh2 ansible_connection=local\n"), 0o644)
	os.WriteFile(pb, []byte(`- name: demo
  hosts: h1
  gather_facts: false
  tasks:
    - name: wait
      command: sleep `+sleep+`
    - debug: msg=hello
    - fail: msg=boom
      ignore_errors: true
      register: r
    - debug: var=r.msg
`), 0o644)
	return inv, pb
}

// TestPlayOutputUnchangedWithoutTerminal: without a terminal, and with any
// of the switches that turn the display off, `tender play` writes the very
// same bytes, and nothing on stderr.
func TestPlayOutputUnchangedWithoutTerminal(t *testing.T) {
	inv, pb := writeLocalPlay(t, "0")
	_, want, wantErr := runCLI(t, "play", "--no-progress", "-i", inv, pb)
	if wantErr != "" || !strings.Contains(want, "PLAY RECAP") {
		t.Fatalf("stdout %q\nstderr %q", want, wantErr)
	}
	check := func(name string, args ...string) {
		t.Helper()
		_, out, errOut := runCLI(t, append([]string{"play", "-i", inv, pb}, args...)...)
		if out != want || errOut != "" {
			t.Errorf("%s: the output changed\n--- got\n%s\n--- want\n%s\n--- stderr\n%s", name, out, want, errOut)
		}
	}
	check("no terminal")

	// With a terminal, every switch turns the display off.
	restore := sameTerminal
	sameTerminal = func(io.Writer, io.Writer) bool { return true }
	t.Cleanup(func() { sameTerminal = restore })
	check("--no-progress", "--no-progress")
	t.Setenv("NO_COLOR", "1")
	check("NO_COLOR")
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "dumb")
	check("TERM=dumb")
}

// TestPlayShowsProgressOnATerminal: on a terminal the bars are drawn on
// stderr, and the text (drawn above them while they are up) is the text
// tender prints without them.
func TestPlayShowsProgressOnATerminal(t *testing.T) {
	// The first task lasts long enough for the display to draw its bar
	// (it draws every 150ms).
	inv, pb := writeLocalPlay(t, "1")
	_, want, _ := runCLI(t, "play", "--no-progress", "-i", inv, pb)
	restore := sameTerminal
	sameTerminal = func(io.Writer, io.Writer) bool { return true }
	t.Cleanup(func() { sameTerminal = restore })
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "")
	code, out, errOut := runCLI(t, "play", "-i", inv, pb)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "TASK [wait]") || !strings.Contains(errOut, " 0/1 hosts ok=0 changed=0 failed=0 unreachable=0") {
		t.Errorf("no bar for the running task on stderr:\n%q", errOut)
	}
	if got := stripBars(errOut) + out; got != want {
		t.Errorf("the text differs from the text without bars\n--- got\n%s\n--- want\n%s", got, want)
	}
}

// TestPlaybookGroupVars: group_vars/ beside the playbook (not beside the
// inventory) set variables of the play's hosts, as with ansible-playbook.
func TestPlaybookGroupVars(t *testing.T) {
	dir := t.TempDir()
	inv := filepath.Join(t.TempDir(), "hosts")
	os.WriteFile(inv, []byte("[web]\nh1 ansible_connection=local\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "group_vars"), 0o755)
	os.WriteFile(filepath.Join(dir, "group_vars", "web.yml"), []byte("from_pb_dir: beside the playbook\n"), 0o644)
	pb := filepath.Join(dir, "pb.yml")
	os.WriteFile(pb, []byte("- hosts: web\n  gather_facts: false\n  tasks:\n    - debug: msg={{ from_pb_dir }}\n"), 0o644)
	code, out, errOut := runCLI(t, "play", "--no-progress", "-i", inv, pb)
	if code != 0 || !strings.Contains(out, `"msg": "beside the playbook"`) {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}
