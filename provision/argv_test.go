package provision_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
)

// cmdlinesContain reports whether any process's command line holds s.
func cmdlinesContain(s string) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err == nil && bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// The shell module's text never shows in ps: it reaches sh through a
// here-document, not as sh's -c argument.
func TestShellTextNotInArgv(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc")
	}
	secret := "tender_planted_" + strings.Repeat("s3cr3t", 3)
	var seen atomic.Bool
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				if cmdlinesContain(secret) {
					seen.Store(true)
				}
			}
		}
	}()
	out, recap, err := play(t, "h ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - shell: "sleep 1; echo `+secret+`; echo $0"
      register: r
    - debug: var=r.stdout_lines
    - shell: "exit 3"
      args:
        executable: /bin/bash
      ignore_errors: true
`, func(r *provision.Runner) { r.Modules = builtin.Registry() })
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	if seen.Load() {
		t.Fatal("the shell text was visible in a process's argv")
	}
	if !strings.Contains(out, secret) || !strings.Contains(out, `"/bin/sh"`) {
		t.Fatalf("the text did not run as sh -c runs it:\n%s", out)
	}
	if s := recap.Stats["h"]; s.Ignored != 1 {
		t.Fatalf("exit 3 under bash: %+v", s)
	}
}
