package commands

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/transporttest"
)

// needScript skips a test on a machine without util-linux's script.
func needScript(t *testing.T) {
	t.Helper()
	out, err := exec.Command("script", "--version").Output()
	if err != nil || !strings.Contains(string(out), "util-linux") {
		t.Skip("no util-linux script on this machine")
	}
}

func expectRun(t *testing.T, env *tasks.Env, args tasks.Args) tasks.Result {
	t.Helper()
	res, err := expectModule{}.Run(context.Background(), env, args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return res
}

func TestExpectAnswers(t *testing.T) {
	needScript(t)
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	name := `sh -c 'printf "Name? "; read n; echo "hi $n"'`
	for _, c := range []struct {
		args tasks.Args
		out  string
	}{
		{tasks.Args{"command": name, "responses": map[string]any{"Name": "bob"}}, "Name? hi bob"},
		{tasks.Args{"command": name, "responses": map[string]any{"Name": "bob\n"}, "echo": true}, "Name? bob\r\nhi bob"},
		{tasks.Args{"command": `sh -c 'printf "Q1 "; read a; printf "Q2 "; read b; echo "$a$b"'`,
			"responses": map[string]any{`Q\d`: []any{"x", 7}}}, "Q1 Q2 x7"},
		{tasks.Args{"command": `sh -c 'printf "A? "; read a; printf "A? "; read b; echo "$a$b"'`,
			"responses": map[string]any{"A": true}}, "A? A? TrueTrue"},
		// the earliest match wins, whichever pattern it is
		{tasks.Args{"command": `sh -c 'printf "b then a: "; read x; echo "$x"'`,
			"responses": map[string]any{"a:": "A", "b": "B"}}, "b then a: B"},
		// at the same place, the first in responses' order
		{tasks.Args{"command": `sh -c 'printf "Password: "; read x; echo "$x"'`,
			"responses": pydict.Record(map[string]any{"Password": "long", "Pass": "short"}, []string{"Password", "Pass"})}, "Password: long"},
		{tasks.Args{"command": `sh -c 'printf "Password: "; read x; echo "$x"'`,
			"responses": pydict.Record(map[string]any{"Password": "long", "Pass": "short"}, []string{"Pass", "Password"})}, "Password: short"},
		{tasks.Args{"command": `sh -c 'echo x; printf "\n\n"'`, "responses": map[string]any{"nomatch": "x"}, "timeout": nil}, "x"},
		{tasks.Args{"command": `/bin/echo a\ b "c  d" 'e "f"'`, "responses": map[string]any{"nomatch": "x"}}, `a b c  d e "f"`},
	} {
		r := expectRun(t, env, c.args)
		if r.Failed || !r.Changed || r.Data["stdout"] != c.out || r.Data["rc"] != 0 || r.Data["cmd"] != c.args["command"] {
			t.Errorf("%v: %+v, want stdout %q", c.args, r, c.out)
		}
	}
	r := expectRun(t, env, tasks.Args{"command": `sh -c 'printf "Q1 "; read a; printf "Q2 "; read b; printf "Q3 "; read c'`,
		"responses": map[string]any{`Q\d`: []any{"x", "y"}}})
	if !r.Failed || r.Changed || r.Msg != `No remaining responses for 'Q\d', output was 'b' Q3''` {
		t.Errorf("answers run out: %+v", r)
	}
}

// procHolds reports a process of this machine whose command line or
// environment holds s.
func procHolds(s string) string {
	files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range files {
		for _, name := range []string{f, filepath.Join(filepath.Dir(f), "environ")} {
			if b, err := os.ReadFile(name); err == nil && strings.Contains(string(b), s) {
				return name + ": " + strings.ReplaceAll(string(b), "\x00", " ")
			}
		}
	}
	return ""
}

// TestExpectTimeoutAndSecrets runs expect through become (a stand-in
// sudo with a password): an answer never shows in any process's argv or
// environment while the command runs, nor in sudo's log; a prompt nobody
// answers times out, and the command is gone afterwards.
func TestExpectTimeoutAndSecrets(t *testing.T) {
	needScript(t)
	dir, log := transporttest.FakeSudo(t)
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = transport.WithBecome(cc.Conn, &transport.Become{User: "app", Password: "become-pw"})
	secret := "s3cret-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	stop := make(chan struct{})
	var seen string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if s := procHolds(secret); s != "" && seen == "" {
				seen = s
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	r := expectRun(t, env, tasks.Args{"command": `sh -c 'printf "Password: "; read p; sleep 0.5; echo "got ${#p}"'`,
		"responses": map[string]any{"(?i)password": secret}})
	close(stop)
	wg.Wait()
	if r.Failed || r.Data["stdout"] != "Password: got "+strconv.Itoa(len(secret)) {
		t.Fatalf("answered through become: %+v", r)
	}
	if seen != "" {
		t.Fatalf("the answer was visible: %s", seen)
	}
	if b, _ := os.ReadFile(log); strings.Contains(string(b), secret) || !strings.Contains(string(b), "-u app") {
		t.Fatalf("sudo's log:\n%s", b)
	}

	token := "tender-expect-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	start := time.Now()
	r = expectRun(t, env, tasks.Args{"command": `sh -c 'printf "Password: "; read p; echo ` + token + `'`,
		"responses": map[string]any{"Username": "x"}, "timeout": 1})
	want := map[string]any{"cmd": r.Data["cmd"], "rc": nil, "stdout": "Password: ", "stdout_lines": []any{"Password: "},
		"start": r.Data["start"], "end": r.Data["end"], "delta": r.Data["delta"]}
	if !r.Failed || !r.Changed || r.Msg != "command exceeded timeout" || !reflect.DeepEqual(r.Data, want) || time.Since(start) > 10*time.Second {
		t.Fatalf("unanswered: %+v", r)
	}
	if s := procHolds(token); s != "" {
		t.Fatalf("the command outlived its timeout: %s", s)
	}
}

func TestExpectSkipsAndFailures(t *testing.T) {
	needScript(t)
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "made"), nil, 0o644)
	nomatch := map[string]any{"nomatch": "x"}
	r := expectRun(t, env, tasks.Args{"command": "echo ran", "responses": nomatch, "chdir": dir, "creates": "made"})
	if r.Failed || r.Changed || r.Data["stdout"] != "skipped, since made exists" || r.Data["rc"] != 0 {
		t.Errorf("creates: %+v", r)
	}
	r = expectRun(t, env, tasks.Args{"command": "echo ran", "responses": nomatch, "removes": dir + "/nope"})
	if r.Failed || r.Changed || r.Data["stdout"] != "skipped, since "+dir+"/nope does not exist" {
		t.Errorf("removes: %+v", r)
	}
	r = expectRun(t, env, tasks.Args{"command": "pwd", "responses": nomatch, "chdir": dir, "removes": "made"})
	if r.Failed || !r.Changed || r.Data["stdout"] != dir {
		t.Errorf("chdir: %+v", r)
	}
	r = expectRun(t, env, tasks.Args{"command": "pwd", "responses": nomatch, "chdir": dir + "/nope"})
	if !r.Failed || r.Msg != "MODULE FAILURE\nSee stdout/stderr for the exact error" ||
		!strings.HasSuffix(r.Data["module_stdout"].(string), "FileNotFoundError: [Errno 2] No such file or directory: '"+dir+"/nope'\n") {
		t.Errorf("chdir missing: %+v", r)
	}
	r = expectRun(t, env, tasks.Args{"command": "tender-no-such-command x", "responses": nomatch})
	if !r.Failed || r.Msg != "The command was not found or was not executable: tender-no-such-command." {
		t.Errorf("not found: %+v", r)
	}
	r = expectRun(t, env, tasks.Args{"command": " \t", "responses": nomatch})
	if !r.Failed || r.Msg != "no command given" || r.Data["rc"] != 256 {
		t.Errorf("empty command: %+v", r)
	}
	r = expectRun(t, env, tasks.Args{"command": "sh -c 'echo no; exit 4'", "responses": nomatch})
	if !r.Failed || !r.Changed || r.Msg != "non-zero return code" || r.Data["rc"] != 4 || r.Data["stdout"] != "no" {
		t.Errorf("exit 4: %+v", r)
	}
	env.Check = true
	r = expectRun(t, env, tasks.Args{"command": "echo ran", "responses": nomatch})
	if !r.Skipped || r.Msg != "remote module (expect) does not support check mode" {
		t.Errorf("check mode: %+v", r)
	}
	env.Check = false
	for _, p := range []string{"(?<=a+)x", "a*", "", "(?=x)?"} {
		if _, err := (expectModule{}).Run(context.Background(), env, tasks.Args{"command": "true", "responses": map[string]any{p: "y"}}); err == nil {
			t.Errorf("pattern %q must be refused", p)
		}
	}
	env.Conn = struct{ transport.Conn }{env.Conn}
	if _, err := (expectModule{}).Run(context.Background(), env, tasks.Args{"command": "true", "responses": nomatch}); err == nil ||
		!strings.Contains(err.Error(), "cannot pass input") {
		t.Errorf("a connection that cannot stream: %v", err)
	}
}

func TestPexpectSplit(t *testing.T) {
	for line, want := range map[string][]string{
		" ls -l":                  {"", "ls", "-l"},
		`a\ b "c  d" 'e "f"' g\"`: {"a b", "c  d", `e "f"`, `g"`},
		`x "" y`:                  {"x", "", "y"},
		`x ""`:                    {"x"},
		"a\tb\n c":                {"a", "b", "c"},
		`say "it\'s"`:             {"say", `it\'s`},
	} {
		if got := pexpectSplit(line); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %q, want %q", line, got, want)
		}
	}
}

func TestPyBytesRepr(t *testing.T) {
	for in, want := range map[string]string{
		"a'b":                   `b"a'b"`,
		`a'b"`:                  `b'a\'b"'`,
		"\x00\x7f\xff\\ \r\n\t": `b'\x00\x7f\xff\\ \r\n\t'`,
	} {
		if got := pyBytesRepr([]byte(in)); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
}

// TestExpectTimeoutZero: a timeout of 0 ends the command at once, even
// before it has started.
func TestExpectTimeoutZero(t *testing.T) {
	needScript(t)
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	start := time.Now()
	r := expectRun(t, env, tasks.Args{"command": "sleep 20", "responses": map[string]any{"x": "y"}, "timeout": 0})
	if !r.Failed || r.Msg != "command exceeded timeout" || time.Since(start) > 10*time.Second {
		t.Fatalf("timeout 0: %+v after %v", r, time.Since(start))
	}
}
