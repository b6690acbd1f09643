package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run the test binary as tender itself (with
// TENDER_TEST_AS_MAIN=1), for what needs a process of its own: signals.
func TestMain(m *testing.M) {
	if os.Getenv("TENDER_TEST_AS_MAIN") == "1" {
		os.Exit(run(os.Args, os.Stdout, os.Stderr))
	}
	// tender play and tender run record their runs in the default
	// ledger: one of the tests' own, not the user's.
	state, err := os.MkdirTemp("", "tender-test-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", state)
	code := m.Run()
	os.RemoveAll(state)
	stopPostgres()
	os.Exit(code)
}

// TestInterruptExitCode: Ctrl-C (one SIGINT) while a task runs ends
// tender play with ansible-playbook's status for it, recorded by
// testdata/exit/gen.sh.
func TestInterruptExitCode(t *testing.T) {
	want := -1
	codes, err := os.ReadFile("testdata/exit/codes.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(codes), "\n") {
		if c, ok := strings.CutPrefix(l, "interrupted "); ok {
			if want, err = strconv.Atoi(strings.TrimSpace(c)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if want < 0 {
		t.Fatal("codes.txt has no interrupted case: rerun gen.sh")
	}
	dir, _ := filepath.Abs("testdata/exit")
	cmd := exec.Command(os.Args[0], "play", "-i", "hosts", "sleep.yml")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TENDER_TEST_AS_MAIN=1", "ANSIBLE_CONFIG=empty.cfg", "ANSIBLE_NOCOLOR=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		once := false
		for sc.Scan() {
			if !once && strings.HasPrefix(sc.Text(), "TASK [sleep a little]") {
				once = true
				close(started)
			}
		}
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the task did not start")
	}
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("tender did not end after Ctrl-C")
	}
	if got := cmd.ProcessState.ExitCode(); got != want {
		t.Errorf("exit %d after Ctrl-C, ansible-playbook exits %d", got, want)
	}
}

// TestVaultEncryptStringPrompt: encrypt_string --prompt asks for the
// variable name and the string (read as lines when standard input is not
// a terminal) and prints a !vault value that decrypts to the string.
func TestVaultEncryptStringPrompt(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	os.WriteFile(pw, []byte("pw1\n"), 0o600)
	cmd := exec.Command(os.Args[0], "vault", "encrypt_string", "--vault-password-file", pw, "-p")
	cmd.Env = append(os.Environ(), "TENDER_TEST_AS_MAIN=1", "ANSIBLE_CONFIG="+filepath.Join(dir, "none.cfg"))
	cmd.Stdin = strings.NewReader("myvar\nsecret value\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.HasPrefix(string(out), "myvar: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n") {
		t.Fatalf("output:\n%s", out)
	}
	file := filepath.Join(dir, "vars.yml")
	os.WriteFile(file, out, 0o600)
	view := exec.Command(os.Args[0], "play", "-i", "localhost,", "-c", "local", "--vault-password-file", pw, "-e", "@"+file, "pb.yml")
	os.WriteFile(filepath.Join(dir, "pb.yml"), []byte("- hosts: all\n  gather_facts: false\n  tasks:\n    - assert: {that: \"myvar == 'secret value'\"}\n"), 0o600)
	view.Dir = dir
	view.Env = cmd.Env
	if out, err := view.CombinedOutput(); err != nil {
		t.Errorf("the value does not decrypt to the string: %v\n%s", err, out)
	}
}
