package tasks_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/testhook"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// TestModulesReadWhatTheSandboxChecked: a module that reads a controller
// file the sandbox allows reads it through Policy.Open, so a file swapped
// for a symlink leading out between the check and the read is refused,
// not read: the module fails with the policy's message and nothing of
// the file outside reaches the host or the result.
func TestModulesReadWhatTheSandboxChecked(t *testing.T) {
	for _, c := range []struct {
		mod    string
		victim string // the file (under ok/) that becomes a link out
		args   func(ok, dest string) tasks.Args
	}{
		{"copy", "a.txt", func(ok, dest string) tasks.Args { return tasks.Args{"src": ok + "/a.txt", "dest": dest} }},
		{"template", "a.txt", func(ok, dest string) tasks.Args { return tasks.Args{"src": ok + "/a.txt", "dest": dest} }},
		{"include_vars", "a.txt", func(ok, _ string) tasks.Args { return tasks.Args{"file": ok + "/a.txt"} }},
		{"script", "a.txt", func(ok, _ string) tasks.Args { return tasks.Args{"_raw_params": ok + "/a.txt"} }},
		{"assemble", "frag/02", func(ok, dest string) tasks.Args {
			return tasks.Args{"src": ok + "/frag", "dest": dest, "remote_src": false}
		}},
		{"library", "a.txt", nil},
	} {
		t.Run(c.mod, func(t *testing.T) {
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			ok, secret := filepath.Join(root, "ok"), filepath.Join(root, "secret.txt")
			os.MkdirAll(filepath.Join(ok, "frag"), 0o755)
			for name, body := range map[string]string{"ok/a.txt": "a: 1\n", "ok/frag/01": "one\n", "ok/frag/02": "two\n",
				"secret.txt": "#!/bin/sh\necho leaked-secret\n"} {
				os.WriteFile(filepath.Join(root, name), []byte(body), 0o755)
			}
			victim := filepath.Join(ok, c.victim)
			swapped := false
			testhook.BeforeOpen = func(real string) {
				if real == victim && !swapped {
					swapped = true
					os.Remove(victim)
					os.Symlink(secret, victim)
				}
			}
			defer func() { testhook.BeforeOpen = nil }()
			conn, err := local.Dialer{}.Connect(context.Background(), transport.Target{Name: "localhost"})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			dest := filepath.Join(t.TempDir(), "dest")
			env := &tasks.Env{Host: "localhost", Conn: conn, FindFile: func(_, name string) (string, error) { return name, nil },
				Render:  func(s string) (string, error) { return s, nil },
				Sandbox: &sandbox.Policy{Name: "sb.yml", Read: []string{ok}}}
			args := tasks.Args{}
			if c.args != nil {
				args = c.args(ok, dest)
			} else {
				env.ModuleFile, env.Action = victim, "mod"
			}
			f, _ := builtin.Registry().Lookup(c.mod)
			res, err := f().Run(context.Background(), env, args)
			got, _ := os.ReadFile(dest)
			out := strings.Join([]string{res.Msg, res.Stdout, res.Stderr, string(got), fmtData(res.Data)}, "\n")
			if !swapped {
				t.Fatalf("the module did not open its file through the policy: %s", out)
			}
			if strings.Contains(out, "leaked-secret") {
				t.Fatalf("the file outside was read: %s", out)
			}
			msg := res.Msg + fmtData(res.Data)
			if err != nil {
				msg = err.Error()
			}
			if !strings.Contains(msg, "the controller sandbox sb.yml does not allow reading") || (err == nil && !res.Failed) {
				t.Errorf("%+v, %v; want the policy's refusal", res, err)
			}
		})
	}
}

func fmtData(m map[string]any) string {
	var b strings.Builder
	for k, v := range m {
		b.WriteString(k + "=")
		if s, ok := v.(string); ok {
			b.WriteString(s)
		} else if mm, ok := v.(map[string]any); ok {
			b.WriteString(fmtData(mm))
		}
		b.WriteString(" ")
	}
	return b.String()
}
