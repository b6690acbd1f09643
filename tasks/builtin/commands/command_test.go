package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/vault"
)

func TestCommandQuotesEveryWord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	odd := filepath.Join(dir, "a; touch pwned")
	res := modtest.RunMod(t, env, "command", tasks.Args{"argv": []any{"touch", odd}})
	if res.Failed || !res.Changed || !modtest.Exists(odd) || modtest.Exists(filepath.Join(dir, "pwned")) || cc.Runs != 1 {
		t.Fatalf("%+v runs=%d", res, cc.Runs)
	}
	res = modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": `printf '%s|' "a b" 'c$HOME' $HOME ~ x*`})
	want := "a b|c" + os.Getenv("HOME") + "|" + os.Getenv("HOME") + "|" + os.Getenv("HOME") + "|x*|"
	if res.Stdout != want || res.Data["rc"] != 0 {
		t.Fatalf("got %q want %q", res.Stdout, want)
	}
	if !reflect.DeepEqual(res.Data["cmd"], []any{"printf", "%s|", "a b", "c$HOME", "$HOME", "~", "x*"}) {
		t.Fatalf("cmd %v", res.Data["cmd"])
	}
}

func TestCommandCreatesRemovesCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	marker := filepath.Join(dir, "marker")
	args := tasks.Args{"_raw_params": "touch " + marker, "creates": marker}

	env.Check = true
	res := modtest.RunMod(t, env, "command", args)
	if !res.Changed || res.Skipped || modtest.Exists(marker) || res.Msg != "Command would have run if not in check mode" {
		t.Fatalf("check: %+v", res)
	}
	res = modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": "touch " + marker})
	if res.Changed || !res.Skipped || modtest.Exists(marker) {
		t.Fatalf("check without creates: %+v", res)
	}
	env.Check = false
	if res = modtest.RunMod(t, env, "command", args); !res.Changed || !modtest.Exists(marker) {
		t.Fatalf("first: %+v", res)
	}
	res = modtest.RunMod(t, env, "command", args)
	if res.Changed || res.Msg != "Did not run command since '"+marker+"' exists" || res.Data["stdout"] != "skipped, since "+marker+" exists" {
		t.Fatalf("second: %+v", res)
	}
	res = modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": "rm " + marker, "removes": filepath.Join(dir, "mark*")})
	if !res.Changed || modtest.Exists(marker) {
		t.Fatalf("removes: %+v", res)
	}
	res = modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": "rm " + marker, "removes": filepath.Join(dir, "mark*")})
	if res.Changed || res.Failed {
		t.Fatalf("removes again: %+v", res)
	}
}

func TestCommandFailures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": "false"})
	if !res.Failed || res.Msg != "non-zero return code" || res.RC != 1 {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": "no-such-cmd-x a"})
	if !res.Failed || res.RC != 2 || res.Msg != "[Errno 2] No such file or directory: b'no-such-cmd-x'" {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": "pwd", "chdir": dir + "/nope"})
	if !res.Failed || !strings.Contains(res.Msg, "Unable to change directory before execution: [Errno 2]") {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "command", tasks.Args{"_raw_params": " "})
	if !res.Failed || res.Msg != "no command given" {
		t.Fatalf("%+v", res)
	}
	// As ansible-playbook's result: the empty output's lines are there.
	if l, ok := res.Data["stdout_lines"].([]any); !ok || len(l) != 0 || res.Data["stderr_lines"] == nil {
		t.Fatalf("no command given: lines %+v", res.Data)
	}
	if _, err := commandArgs.Decode(tasks.Args{"_raw_params": "x", "chdri": "/"}); err == nil || !strings.Contains(err.Error(), `Did you mean "chdir"`) {
		t.Fatal(err)
	}
}

func TestShell(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "shell", tasks.Args{"_raw_params": "cat; pwd; echo err >&2; echo", "chdir": dir, "stdin": "in"})
	if res.Stdout != "in\n"+dir || res.Stderr != "err" || res.Failed || !res.Changed {
		t.Fatalf("%+v", res)
	}
	if !reflect.DeepEqual(res.Data["stdout_lines"], []any{"in", dir}) || res.Data["cmd"] != "cat; pwd; echo err >&2; echo" {
		t.Fatalf("%+v", res.Data)
	}
	res = modtest.RunMod(t, env, "shell", tasks.Args{"_raw_params": "echo $0", "executable": "/bin/bash", "strip_empty_ends": false})
	if res.Stdout != "/bin/bash\n" {
		t.Fatalf("%q", res.Stdout)
	}
	res = modtest.RunMod(t, env, "shell", tasks.Args{"_raw_params": "exit 3"})
	if !res.Failed || res.RC != 3 {
		t.Fatalf("%+v", res)
	}
}

func TestRaw(t *testing.T) {
	t.Parallel()
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	res := modtest.RunMod(t, env, "raw", tasks.Args{"_raw_params": "echo a; echo b >&2"})
	if res.Stdout != "a\n" || res.Stderr != "b\n" || !res.Changed || res.Failed {
		t.Fatalf("%+v", res)
	}
	env.Check = true
	if res = modtest.RunMod(t, env, "raw", tasks.Args{"_raw_params": "exit 1"}); !res.Skipped || res.Changed {
		t.Fatalf("%+v", res)
	}
}

func TestScript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "s.sh"), []byte("#!/bin/sh\necho \"$# $1 $(pwd)\"\ntouch \"$2\"\n"), 0o644)
	env, cc := modtest.TestEnv(t, dir, nil)
	out := filepath.Join(dir, "made")
	args := tasks.Args{"_raw_params": "s.sh 'a b' " + out, "creates": out, "chdir": "/"}
	env.Check = true
	if res := modtest.RunMod(t, env, "script", args); !res.Changed || modtest.Exists(out) {
		t.Fatalf("check: %+v", res)
	}
	env.Check = false
	res := modtest.RunMod(t, env, "script", args)
	if res.Stdout != "2 a b /\n" || !res.Changed || !modtest.Exists(out) {
		t.Fatalf("%+v", res)
	}
	if res = modtest.RunMod(t, env, "script", args); !res.Skipped || res.Changed || res.Msg != out+" exists, matching creates option" {
		t.Fatalf("%+v", res)
	}
	if cc.Runs != 3 {
		t.Fatalf("runs %d", cc.Runs)
	}
}

// TestShPathExpands: a path parameter expands on the host as Ansible's
// path type does: set $VAR and ${VAR}, then a leading ~; unset variables
// stay as written, and nothing else is interpreted.
func TestShPathExpands(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"$HOME/.ssh/authorized_keys", "/home/u/.ssh/authorized_keys"},
		{"${HOME}x", "/home/ux"},
		{"~/a b", "/home/u/a b"},
		{"~", "/home/u"},
		{"~root/a", "/root/a"},
		{"~root", "/root"},
		{"~no-such-user-here/a", "~no-such-user-here/a"},
		{"~a'b/c", "~a'b/c"},
		{"~$(id)/c", "~$(id)/c"},
		{"$NOPE/x", "$NOPE/x"},
		{"${NOPE}/x", "${NOPE}/x"},
		{"$EMPTY|", "|"},
		{"a'b\"c$(touch /tmp/x)`id`", "a'b\"c$(touch /tmp/x)`id`"},
		{"$1 ${a-b}", "$1 ${a-b}"},
		{"", ""},
	} {
		script := "HOME=/home/u EMPTY= ; unset NOPE; printf '%s' " + shared.ShPath(c.in)
		out, err := exec.Command("/bin/sh", "-c", script).Output()
		if err != nil || string(out) != c.want {
			t.Errorf("%q: %q %v, want %q", c.in, out, err, c.want)
		}
	}
}

// TestChdirIsPhysical: chdir enters the directory as Python's os.chdir
// does, so $PWD is the path with symbolic links resolved (a shell's cd
// would keep the link's name).
func TestChdirIsPhysical(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "real", "site"), 0o755)
	os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link"))
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "shell", tasks.Args{"_raw_params": `printf %s "$PWD"`, "chdir": filepath.Join(dir, "link", "site")})
	if want := filepath.Join(dir, "real", "site"); res.Data["stdout"] != want {
		t.Errorf("$PWD is %q, want the physical %q", res.Data["stdout"], want)
	}
}

// TestScriptDecrypt: a vault-encrypted script runs decrypted (decrypt
// defaults to on), fails clearly without a vault secret, and is sent as
// it is with decrypt off.
func TestScriptDecrypt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	enc, err := vault.Encrypt([]byte("#!/bin/sh\necho secret-free\n"), []byte("pw"), "")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "v.sh"), enc, 0o644)
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "script", tasks.Args{"_raw_params": "v.sh"})
	if !res.Failed || !strings.Contains(res.Msg, "A vault password or secret must be specified") {
		t.Fatalf("no secret: %+v", res)
	}
	env.Decrypt = func(b []byte) ([]byte, error) {
		e, err := vault.Parse(b)
		if err != nil {
			return nil, err
		}
		return e.Decrypt([]byte("pw"))
	}
	if res = modtest.RunMod(t, env, "script", tasks.Args{"_raw_params": "v.sh"}); res.Failed || res.Stdout != "secret-free\n" {
		t.Fatalf("decrypted: %+v", res)
	}
	res = modtest.RunMod(t, env, "script", tasks.Args{"_raw_params": "v.sh", "decrypt": false})
	if res.Stdout == "secret-free\n" {
		t.Fatalf("decrypt off ran the plain text: %+v", res)
	}
}
