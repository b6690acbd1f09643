package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestLineinfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	real := filepath.Join(dir, "real; rm -rf 'x'")
	os.WriteFile(real, []byte("a=1\nb=2\n"), 0o640)
	link := filepath.Join(dir, "link")
	os.Symlink(real, link)
	args := tasks.Args{"path": link, "regexp": "^b=", "line": "b=3"}

	env.Check, env.Diff = true, true
	res := modtest.RunMod(t, env, "lineinfile", args)
	if !res.Changed || modtest.ReadFile(t, real) != "a=1\nb=2\n" || cc.Runs != 1 {
		t.Fatalf("check: %+v runs=%d", res, cc.Runs)
	}
	if !strings.Contains(res.Diff, "-b=2\n+b=3\n") || !strings.Contains(res.Diff, "--- before: "+link+" (content)") {
		t.Fatalf("check diff: %q", res.Diff)
	}
	env.Check = false
	cc.Runs = 0
	res = modtest.RunMod(t, env, "lineinfile", args)
	if !res.Changed || res.Msg != "line replaced" || cc.Runs != 2 {
		t.Fatalf("apply: %+v runs=%d", res, cc.Runs)
	}
	// The link's target is edited, the link kept, the mode preserved.
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("link replaced by a file")
	}
	if modtest.ReadFile(t, real) != "a=1\nb=3\n" || mode(t, real) != 0o640 {
		t.Fatalf("content %q mode %v", modtest.ReadFile(t, real), mode(t, real))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tender-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	cc.Runs = 0
	res = modtest.RunMod(t, env, "lineinfile", args)
	if res.Changed || res.Failed || cc.Runs != 1 || res.Diff != "" {
		t.Fatalf("again: %+v runs=%d", res, cc.Runs)
	}

	// Only the mode differs: one write, no content change.
	res = modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": real, "line": "a=1", "mode": "0600"})
	if !res.Changed || res.Msg != "ownership, perms or SE linux context changed" || mode(t, real) != 0o600 {
		t.Fatalf("mode: %+v", res)
	}

	// Patterns RE2 cannot run (lookahead here) run on pyre's backtracking
	// matcher, as Python's re.
	res = modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": real, "regexp": "^a(?==1)", "line": "a=1 # kept"})
	if !res.Changed || modtest.ReadFile(t, real) != "a=1 # kept\nb=3\n" {
		t.Fatalf("lookahead: %+v %q", res, modtest.ReadFile(t, real))
	}
	res = modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": real, "regexp": "^a=1 # (?=kept)", "line": "a=1"})
	if !res.Changed || modtest.ReadFile(t, real) != "a=1\nb=3\n" {
		t.Fatalf("lookahead back: %+v %q", res, modtest.ReadFile(t, real))
	}
	res = modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": real, "regexp": `^(\w)=(\d)`, "line": `\g<2>=\1`, "backrefs": true, "firstmatch": true})
	if !res.Changed || modtest.ReadFile(t, real) != "1=a\nb=3\n" {
		t.Fatalf("backrefs: %+v %q", res, modtest.ReadFile(t, real))
	}
}

func TestLineinfilePlacement(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, before string
		args         tasks.Args
		after, msg   string
	}{
		{"eof without newline", "a\nb", tasks.Args{"line": "c"}, "a\nb\nc\n", "line added"},
		{"empty file", "", tasks.Args{"line": "c"}, "c\n", "line added"},
		{"after last match", "x\na\nx\nb\n", tasks.Args{"line": "c", "insertafter": "^x"}, "x\na\nx\nc\nb\n", "line added"},
		{"after first match", "x\na\nx\nb\n", tasks.Args{"line": "c", "insertafter": "^x", "firstmatch": true}, "x\nc\na\nx\nb\n", "line added"},
		{"before", "a\nb\n", tasks.Args{"line": "c", "insertbefore": "^b"}, "a\nc\nb\n", "line added"},
		{"before first line", "a\nb\n", tasks.Args{"line": "c", "insertbefore": "^a"}, "c\na\nb\n", "line added"},
		{"bof", "a\n", tasks.Args{"line": "c", "insertafter": "BOF"}, "c\na\n", "line added"},
		{"regexp wins over insertafter", "a\nk=1\n", tasks.Args{"line": "k=2", "regexp": "^k=", "insertafter": "^a"}, "a\nk=2\n", "line replaced"},
		{"present elsewhere", "c\na\n", tasks.Args{"line": "c", "insertafter": "^a"}, "c\na\n", ""},
		{"crlf line replaced", "c\r\n", tasks.Args{"line": "c"}, "c\n", "line replaced"},
		{"absent all", "c\na\nc\n", tasks.Args{"line": "c", "state": "absent"}, "a\n", "2 line(s) removed"},
		{"absent search", "foo=1\nbar\n", tasks.Args{"search_string": "o=", "state": "absent"}, "bar\n", "1 line(s) removed"},
	} {
		dir := t.TempDir()
		env, _ := modtest.TestEnv(t, dir, nil)
		p := filepath.Join(dir, "f")
		os.WriteFile(p, []byte(c.before), 0o644)
		args := tasks.Args{"path": p}
		for k, v := range c.args {
			args[k] = v
		}
		res := modtest.RunMod(t, env, "lineinfile", args)
		if got := modtest.ReadFile(t, p); got != c.after || res.Msg != c.msg || res.Changed != (c.msg != "") {
			t.Errorf("%s: %q, %+v; want %q, %q", c.name, got, res, c.after, c.msg)
		}
	}
}

// TestLineinfileCheckOrder: lineinfile refuses what is wrong in Ansible's
// order (recorded from ansible-core 2.14's lineinfile): a directory
// first, then arguments that do not go together, then a missing file,
// and only then a pattern that does not compile.
func TestLineinfileCheckOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	missing := filepath.Join(dir, "missing")
	for _, c := range []struct {
		args tasks.Args
		msg  string
	}{
		{tasks.Args{"path": dir, "line": "x", "backrefs": true}, "Path " + dir + " is a directory !"},
		{tasks.Args{"path": missing, "line": "x", "backrefs": true}, "regexp is required with backrefs=true"},
		{tasks.Args{"path": missing, "line": "x", "regexp": "("}, "Destination " + missing + " does not exist !"},
		{tasks.Args{"path": missing, "state": "absent", "regexp": "("}, ""},
	} {
		res := modtest.RunMod(t, env, "lineinfile", c.args)
		if c.msg == "" {
			if res.Failed || res.Msg != "file not present" {
				t.Errorf("%v: %+v", c.args, res)
			}
			continue
		}
		if !res.Failed || res.Msg != c.msg {
			t.Errorf("%v: %+v, want %q", c.args, res, c.msg)
		}
	}
}

// TestLineinfileCreateMakesParents: with create, the missing parent
// directories are made before the edit is worked out, as Ansible's
// lineinfile does, even when a backrefs regexp that matches nothing then
// writes no file; check mode makes none.
func TestLineinfileCreateMakesParents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	p := filepath.Join(dir, "a", "b", "f")
	args := tasks.Args{"path": p, "regexp": "^nomatch", "line": "x", "backrefs": true, "create": true}
	env.Check = true
	if res := modtest.RunMod(t, env, "lineinfile", args); res.Failed || res.Changed {
		t.Fatalf("check: %+v", res)
	}
	if _, err := os.Stat(filepath.Dir(p)); err == nil {
		t.Fatal("check mode made the directories")
	}
	env.Check = false
	if res := modtest.RunMod(t, env, "lineinfile", args); res.Failed || res.Changed {
		t.Fatalf("%+v", res)
	}
	if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
		t.Fatalf("the parent directories were not made: %v", err)
	}
	if _, err := os.Stat(p); err == nil {
		t.Fatal("a backrefs regexp that matches nothing wrote the file")
	}
}
