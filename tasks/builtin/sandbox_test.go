package builtin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// sandboxEnv is a controller with ok/ (readable; ok/w writable) beside
// secret/, links out of ok/, and an Env whose FindFile looks in ok/files
// under a Policy that allows just that.
func sandboxEnv(t *testing.T) (env *tasks.Env, ok, secret string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ok, secret = filepath.Join(root, "ok"), filepath.Join(root, "secret")
	for name, body := range map[string]string{
		"ok/files/a.txt": "a", "ok/files/tree/a.txt": "a", "ok/files/frag/01": "one\n", "ok/files/vars/a.yml": "a: 1\n",
		"ok/w/.keep": "", "ok/files/mod.sh": "#!/bin/sh\necho '{}'\n",
		"secret/s.txt": "s", "secret/s.yml": "s: 1\n", "secret/mod.sh": "#!/bin/sh\necho '{}'\n", "secret/sub/x": "x",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		os.WriteFile(filepath.Join(root, name), []byte(body), 0o644)
	}
	modtest.WriteTar(t, filepath.Join(secret, "a.tar"))
	for link, target := range map[string]string{
		"ok/files/out.txt": "../../secret/s.txt", "ok/files/tree/out.txt": "../../../secret/s.txt",
		"ok/files/dtree/sub": "../../../secret/sub", "ok/files/frag/02": "../../../secret/s.txt",
		"ok/files/vars/s.yml": "../../../secret/s.yml", "ok/w/out": "../../secret",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755)
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	env, _ = modtest.TestEnv(t, filepath.Join(ok, "files"), nil)
	env.Render = func(s string) (string, error) { return s, nil }
	env.Sandbox = &sandbox.Policy{Name: "test.yml", Read: []string{ok}, Write: []string{filepath.Join(ok, "w")}}
	return env, ok, secret
}

// runDenied runs a module and wants the sandbox's refusal, as its error
// or (include_vars) its failure message.
func runDenied(t *testing.T, env *tasks.Env, name string, args tasks.Args, want string) {
	t.Helper()
	f, _ := Registry().Lookup(name)
	res, err := f().Run(context.Background(), env, args)
	var de *sandbox.DeniedError
	switch {
	case errors.As(err, &de):
		if !strings.Contains(err.Error(), "the controller sandbox test.yml does not allow "+want) {
			t.Errorf("%s %v: %v, want %q", name, args, err, want)
		}
	case err == nil && res.Failed && strings.Contains(msgOf(res.Data["message"]), "does not allow "+want):
	default:
		t.Errorf("%s %v: %+v, %v; want a denial of %q", name, args, res, err, want)
	}
}

// msgOf is a message field as a string.
func msgOf(v any) string { s, _ := v.(string); return s }

func TestSandboxDeniesModules(t *testing.T) {
	env, ok, secret := sandboxEnv(t)
	dest := filepath.Join(t.TempDir(), "d")
	reading := func(p string) string { return "reading " + p }
	for _, c := range []struct {
		mod  string
		args tasks.Args
		want string
	}{
		{"copy", tasks.Args{"src": secret + "/s.txt", "dest": dest}, reading(secret + "/s.txt")},
		{"copy", tasks.Args{"src": ok + "/files/../../secret/s.txt", "dest": dest}, reading(ok + "/files/../../secret/s.txt")},
		{"copy", tasks.Args{"src": "out.txt", "dest": dest}, reading(ok + "/files/out.txt, which leads to " + secret + "/s.txt")},
		{"copy", tasks.Args{"src": "tree/", "dest": dest}, reading(secret + "/s.txt")},
		{"copy", tasks.Args{"src": "dtree/", "dest": dest, "local_follow": true}, reading(secret + "/sub")},
		{"template", tasks.Args{"src": "out.txt", "dest": dest}, reading(ok + "/files/out.txt")},
		{"script", tasks.Args{"_raw_params": secret + "/mod.sh"}, reading(secret + "/mod.sh")},
		{"assemble", tasks.Args{"src": "frag", "dest": dest, "remote_src": false}, reading(ok + "/files/frag/02")},
		{"assemble", tasks.Args{"src": secret, "dest": dest, "remote_src": false}, reading(secret)},
		{"unarchive", tasks.Args{"src": secret + "/a.tar", "dest": t.TempDir()}, reading(secret + "/a.tar")},
		{"include_vars", tasks.Args{"file": secret + "/s.yml"}, reading(secret + "/s.yml")},
		{"include_vars", tasks.Args{"dir": ok + "/files/vars"}, reading(ok + "/files/vars/s.yml")},
		{"include_vars", tasks.Args{"dir": secret}, reading(secret)},
		{"fetch", tasks.Args{"src": ok + "/files/a.txt", "dest": secret + "/got"}, "writing " + secret + "/got"},
		{"fetch", tasks.Args{"src": ok + "/files/a.txt", "dest": ok + "/got/"}, "writing " + ok + "/got"},
		{"fetch", tasks.Args{"src": ok + "/files/a.txt", "dest": ok + "/w/out/", "flat": true}, "writing " + ok + "/w/out"},
	} {
		runDenied(t, env, c.mod, c.args, c.want)
	}
	env.ModuleFile, env.Action = secret+"/mod.sh", "mod"
	runDenied(t, env, "library", tasks.Args{}, reading(secret+"/mod.sh"))
	for _, p := range []string{dest, secret + "/got", ok + "/got"} {
		if modtest.Exists(p) {
			t.Errorf("%s was written", p)
		}
	}
}

func TestSandboxAllowsModules(t *testing.T) {
	env, ok, _ := sandboxEnv(t)
	dest := t.TempDir()
	// links are copied as links when not followed: nothing outside is read
	if res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "tree/", "dest": dest + "/", "local_follow": false}); res.Failed {
		t.Fatalf("copy: %+v", res)
	}
	if res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "a.txt", "dest": dest + "/a"}); res.Failed || modtest.ReadFile(t, dest+"/a") != "a" {
		t.Fatalf("copy: %+v", res)
	}
	if res := modtest.RunMod(t, env, "fetch", tasks.Args{"src": ok + "/files/a.txt", "dest": ok + "/w/got", "flat": true}); res.Failed || modtest.ReadFile(t, ok+"/w/got") != "a" {
		t.Fatalf("fetch: %+v", res)
	}
	if res := modtest.RunMod(t, env, "include_vars", tasks.Args{"file": ok + "/files/vars/a.yml"}); res.Failed {
		t.Fatalf("include_vars: %+v", res)
	}
}

// TestSandboxArgSpecPaths: validate_argument_spec expands a path option
// on the controller, as Ansible does; under a sandbox it sees only the
// environment variables the policy allows, and ~ only from an allowed
// HOME (the failure message shows the converted value).
func TestSandboxArgSpecPaths(t *testing.T) {
	t.Setenv("TENDER_ARGSPEC_SECRET", "s3cret")
	t.Setenv("TENDER_ARGSPEC_OK", "shown")
	t.Setenv("HOME", "/home/op")
	spec := map[string]any{"p": map[string]any{"type": "path", "choices": []any{"none"}}}
	args := tasks.Args{"argument_spec": spec, "provided_arguments": map[string]any{"p": "~/$TENDER_ARGSPEC_SECRET/$TENDER_ARGSPEC_OK"}}
	for _, c := range []struct {
		policy *sandbox.Policy
		want   string
	}{
		{nil, "got: /home/op/s3cret/shown"},
		{&sandbox.Policy{Env: []string{"TENDER_ARGSPEC_OK"}}, "got: ~/$TENDER_ARGSPEC_SECRET/shown"},
		{&sandbox.Policy{Env: []string{"HOME"}}, "got: /home/op/$TENDER_ARGSPEC_SECRET/$TENDER_ARGSPEC_OK"},
	} {
		env, _ := modtest.TestEnv(t, t.TempDir(), nil)
		env.Sandbox = c.policy
		res := modtest.RunMod(t, env, "validate_argument_spec", args)
		if !res.Failed || !strings.Contains(res.Msg, c.want) {
			t.Errorf("%+v: %q, want %q", c.policy, res.Msg, c.want)
		}
	}
}
