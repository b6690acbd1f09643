package files

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// The host's no-op check (shared.ReadTextUnless) agrees with the
// controller's edit: it says no-op only where present() changes nothing,
// on files the shell reads itself (up to 1 KiB) and those awk reads, and
// leaves only the odd file where the shell's test is too coarse (a line
// with carriage returns before the exact one) to the controller; where it
// does not say no-op, the file comes back byte for byte. Under busybox
// (TENDER_TEST_BUSYBOX=1) files awk would read are left to the
// controller.
func TestReadTextUnlessAgreesWithPresent(t *testing.T) {
	dir := t.TempDir()
	awks := countStarts(t, dir, "awk")
	env, _ := modtest.TestEnv(t, dir, nil)
	pad := strings.Repeat("# padding line to pass the shell's 1 KiB\n", 30)
	cases := []struct{ name, content, line string }{
		{"there", "a=1\nkey=value\nb=2\n", "key=value"},
		{"first", "key=value\nb=2\n", "key=value"},
		{"last", "a=1\nkey=value\n", "key=value"},
		{"only", "key=value\n", "key=value"},
		{"missing", "a=1\nb=2\n", "key=value"},
		{"empty", "", "key=value"},
		{"unterminated", "a=1\nkey=value", "key=value"},
		{"unterminated only", "key=value", "key=value"},
		{"crlf", "a=1\r\nkey=value\r\n", "key=value"},
		{"cr later", "key=value\nb=2\nkey=value\r\n", "key=value"},
		{"crs then exact", "key=value\r\r\nkey=value\n", "key=value"},
		{"prefix only", "key=values\nmy key=value\n", "key=value"},
		{"glob chars", "a=1\n*[x]? \\n 'q' \"d\" $HOME\n", "*[x]? \\n 'q' \"d\" $HOME"},
		{"glob no match", "a=1\nzz[x]? \\n 'q' \"d\" $HOME\n", "*[x]? \\n 'q' \"d\" $HOME"},
		{"blanks", "  key = value  \n", "  key = value  "},
		{"twice", "key=value\nkey=value\n", "key=value"},
		{"nul", "key=value\n\x00\n", "key=value"},
		{"big there", pad + "key=value\n" + pad, "key=value"},
		{"big last", pad + "key=value\n", "key=value"},
		{"big missing", pad, "key=value"},
		{"big unterminated", pad + "key=value", "key=value"},
		{"big crlf later", pad + "key=value\n" + pad + "key=value\r\n", "key=value"},
		{"big exact after cr", pad + "key=value\r\n" + pad + "key=value\n", "key=value"},
		{"big nul", pad + "key=value\n\x00key=value\n", "key=value"},
		{"big nul before", pad + "\x00key=value\n", "key=value"},
		{"big awk escapes", pad + "a\\tb\n", "a\\tb"},
		{"big glob", pad + "*\n", "*"},
		{"big glob no", pad + "x\n", "*"},
		{"big numbers", pad + "01\n", "1"},
		{"big number blanks", pad + " 8080 \n", "8080"},
		{"big exponent", pad + "1e3\n", "1000"},
		{"big number there", pad + "8080\n", "8080"},
		{"numbers", "01\n 8080 \n1e3\n", "1"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_"))
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		e := lineEdit{line: []byte(c.line)}
		eof := "EOF"
		e.insertafter = &eof
		after, msg, err := e.present([]byte(c.content))
		if err != nil {
			t.Fatal(err)
		}
		same := msg == "" && bytes.Equal(after, []byte(c.content))
		awks()
		f, noop, fail, err := shared.ReadTextUnless(context.Background(), env, p, shared.FileAttrs{}, c.line)
		if err != nil || fail != nil {
			t.Fatalf("%s: %v %+v", c.name, err, fail)
		}
		// busybox's awk ends a record at a NUL: the host does not ask it
		awkRead := len(c.content) > 1024 || strings.Contains(c.content, "\x00")
		mayLeave := c.name == "crs then exact" || (os.Getenv("TENDER_TEST_BUSYBOX") != "" && awkRead)
		if noop != same && (noop || !mayLeave) {
			t.Errorf("%s: host says no-op %v, the edit changes nothing %v", c.name, noop, same)
		}
		if !noop && string(f.Content) != c.content {
			t.Errorf("%s: read %q, want %q", c.name, f.Content, c.content)
		}
		if n := awks(); !awkRead && n != 0 {
			t.Errorf("%s: %d awk started for a file the shell reads", c.name, n)
		}
	}
}

// Where the line is there but the attributes differ, the host leaves the
// decision to the controller; a missing file and a directory come back
// as ReadText gives them.
func TestReadTextUnlessAttrsMissingDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("x=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if f, noop, fail, err := shared.ReadTextUnless(ctx, env, p, shared.FileAttrs{Mode: "0600"}, "x=1"); err != nil || fail != nil ||
		noop || string(f.Content) != "x=1\n" || !shared.AttrsChanged(f.Attrs) {
		t.Fatalf("mode differs: noop %v %+v %v %v", noop, f, fail, err)
	}
	if _, noop, fail, err := shared.ReadTextUnless(ctx, env, p, shared.FileAttrs{Mode: "0644"}, "x=1"); err != nil || fail != nil || !noop {
		t.Fatalf("mode as asked: noop %v %v %v", noop, fail, err)
	}
	if f, noop, fail, err := shared.ReadTextUnless(ctx, env, filepath.Join(dir, "none"), shared.FileAttrs{}, "x=1"); err != nil ||
		fail != nil || noop || f.Exists {
		t.Fatalf("missing: noop %v %+v %v %v", noop, f, fail, err)
	}
	if _, _, fail, err := shared.ReadTextUnless(ctx, env, dir, shared.FileAttrs{}, "x=1"); err != nil || fail == nil ||
		!strings.Contains(fail.Msg, "is a directory") {
		t.Fatalf("directory: %+v %v", fail, err)
	}
}

// A lineinfile task the host finds done gives the result the controller's
// edit gives (changed false, the same msg, backup and diff entries), its
// script is final (the tasks after it may be sent behind it) and names
// its path for a shared stat, and the host sends no content; one that changes goes on as before.
func TestLineinfileHostNoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	p := filepath.Join(dir, "conf")
	if err := os.WriteFile(p, []byte("a=1\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	args := tasks.Args{"path": p, "line": "key=value", "mode": "0640"}
	res := modtest.RunMod(t, env, "lineinfile", args)
	if !res.Changed || res.Msg != "line added" || modtest.ReadFile(t, p) != "a=1\nkey=value\n" || cc.Runs != 2 {
		t.Fatalf("first: %+v runs=%d", res, cc.Runs)
	}
	cc.Runs = 0
	quick := modtest.RunMod(t, env, "lineinfile", args)
	if quick.Changed || quick.Failed || cc.Runs != 1 || !cc.Last.Final || strings.Contains(string(cc.LastOut.Stdout), "--content--") {
		t.Fatalf("again: %+v runs=%d final=%v out=%q", quick, cc.Runs, cc.Last.Final, cc.LastOut.Stdout)
	}
	// it names its path for a stat shared with the scripts beside it
	if cc.Last.Stat != p || cc.Last.Unchanged != "noop=1" || cc.Last.LinesUntil != "--content--" {
		t.Fatalf("again: stat %q unchanged %q lines until %q", cc.Last.Stat, cc.Last.Unchanged, cc.Last.LinesUntil)
	}
	// the same task with a regexp is decided on the controller
	slow := modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": p, "regexp": "^key=", "line": "key=value", "mode": "0640"})
	if cc.Last.Final || !strings.Contains(string(cc.LastOut.Stdout), "--content--") {
		t.Fatalf("regexp: the host decided (final %v)", cc.Last.Final)
	}
	if quick.Msg != slow.Msg || !reflect.DeepEqual(quick.Data, slow.Data) || quick.Changed != slow.Changed {
		t.Fatalf("host no-op %+v, controller's %+v", quick, slow)
	}
}
