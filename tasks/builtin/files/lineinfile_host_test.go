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
// with carriage returns before the exact one) or a regexp that matches
// nothing (where the line itself is then looked for) to the controller; where it
// does not say no-op, the file comes back byte for byte. Under busybox
// (TENDER_TEST_BUSYBOX=1) files awk would read are left to the
// controller.
func TestReadTextUnlessAgreesWithPresent(t *testing.T) {
	dir := t.TempDir()
	awks := countStarts(t, dir, "awk")
	env, _ := modtest.TestEnv(t, dir, nil)
	pad := strings.Repeat("# padding line to pass the shell's 1 KiB\n", 30)
	type tc struct {
		name, content, line string
		regexp, search      *string
		first               bool
	}
	cases := []tc{
		{name: "there", content: "a=1\nkey=value\nb=2\n", line: "key=value"},
		{name: "first", content: "key=value\nb=2\n", line: "key=value"},
		{name: "last", content: "a=1\nkey=value\n", line: "key=value"},
		{name: "only", content: "key=value\n", line: "key=value"},
		{name: "missing", content: "a=1\nb=2\n", line: "key=value"},
		{name: "empty", content: "", line: "key=value"},
		{name: "unterminated", content: "a=1\nkey=value", line: "key=value"},
		{name: "unterminated only", content: "key=value", line: "key=value"},
		{name: "crlf", content: "a=1\r\nkey=value\r\n", line: "key=value"},
		{name: "cr later", content: "key=value\nb=2\nkey=value\r\n", line: "key=value"},
		{name: "crs then exact", content: "key=value\r\r\nkey=value\n", line: "key=value"},
		{name: "prefix only", content: "key=values\nmy key=value\n", line: "key=value"},
		{name: "glob chars", content: "a=1\n*[x]? \\n 'q' \"d\" $HOME\n", line: "*[x]? \\n 'q' \"d\" $HOME"},
		{name: "glob no match", content: "a=1\nzz[x]? \\n 'q' \"d\" $HOME\n", line: "*[x]? \\n 'q' \"d\" $HOME"},
		{name: "blanks", content: "  key = value  \n", line: "  key = value  "},
		{name: "twice", content: "key=value\nkey=value\n", line: "key=value"},
		{name: "nul", content: "key=value\n\x00\n", line: "key=value"},
		{name: "numbers", content: "01\n 8080 \n1e3\n", line: "1"},
	}
	for _, c := range []tc{
		{name: "there", content: pad + "key=value\n" + pad, line: "key=value"},
		{name: "last", content: pad + "key=value\n", line: "key=value"},
		{name: "missing", content: pad, line: "key=value"},
		{name: "unterminated", content: pad + "key=value", line: "key=value"},
		{name: "crlf later", content: pad + "key=value\n" + pad + "key=value\r\n", line: "key=value"},
		{name: "exact after cr", content: pad + "key=value\r\n" + pad + "key=value\n", line: "key=value"},
		{name: "nul", content: pad + "key=value\n\x00key=value\n", line: "key=value"},
		{name: "nul before", content: pad + "\x00key=value\n", line: "key=value"},
		{name: "awk escapes", content: pad + "a\\tb\n", line: "a\\tb"},
		{name: "glob", content: pad + "*\n", line: "*"},
		{name: "glob no", content: pad + "x\n", line: "*"},
		{name: "numbers", content: pad + "01\n", line: "1"},
		{name: "number blanks", content: pad + " 8080 \n", line: "8080"},
		{name: "exponent", content: pad + "1e3\n", line: "1000"},
		{name: "number there", content: pad + "8080\n", line: "8080"},
	} {
		c.name = "big " + c.name
		cases = append(cases, c)
	}
	// the line found by a literal regexp or a search_string, small and big
	str := func(s string) *string { return &s }
	for _, body := range []string{"", pad} {
		for _, c := range []tc{
			{name: "re start", content: "a=1\nPort 22\nb=2\n", line: "Port 22", regexp: str("^Port")},
			{name: "re start other", content: "a=1\nPort 2222\nb=2\n", line: "Port 22", regexp: str("^Port")},
			{name: "re start later", content: "Port 22\nPort 23\n", line: "Port 22", regexp: str("^Port")},
			{name: "re start first", content: "Port 22\nPort 23\n", line: "Port 22", regexp: str("^Port"), first: true},
			{name: "re start first no", content: "Port 23\nPort 22\n", line: "Port 22", regexp: str("^Port"), first: true},
			{name: "re not at start", content: "#Port 22\n", line: "#Port 22", regexp: str("^Port")},
			{name: "re anywhere", content: "x\n# Port 22 here\n", line: "# Port 22 here", regexp: str("Port 22")},
			{name: "re end", content: "a = on\n", line: "a = on", regexp: str("= on$")},
			{name: "re end cr", content: "a = on\r\n", line: "a = on", regexp: str("= on$")},
			{name: "re exact", content: "a\nb\n", line: "b", regexp: str("^b$")},
			{name: "re exact unterminated", content: "a\nb", line: "b", regexp: str("^b$")},
			{name: "re no match", content: "a\nb\n", line: "b", regexp: str("^c")},
			{name: "re crlf hit", content: "Port 22\r\n", line: "Port 22", regexp: str("^Port")},
			{name: "re quotes", content: "k='v' \"w\" $x\n", line: "k='v' \"w\" $x", regexp: str("^k='v' \"w\"")},
			{name: "search", content: "a\nuse foo bar\n", line: "use foo bar", search: str("foo")},
			{name: "search other", content: "a\nuse foo baz\n", line: "use foo bar", search: str("foo")},
			{name: "search glob", content: "a\n[*]?\n", line: "[*]?", search: str("*]")},
			{name: "search first", content: "foo 1\nfoo 2\n", line: "foo 1", search: str("foo"), first: true},
			{name: "search nul", content: "Port 22\n\x00Port 23\n", line: "Port 22", search: str("Port")},
			{name: "search backslash", content: "a\\b c\n", line: "a\\b c", search: str("a\\b")},
			{name: "first unterminated", content: "x\nPort 22", line: "Port 22", regexp: str("^Port"), first: true},
			{name: "first end", content: "a = on\nb = on\n", line: "a = on", regexp: str("= on$"), first: true},
			{name: "first exact", content: "b\nb\n", line: "b", regexp: str("^b$"), first: true},
		} {
			c.content = body + c.content
			if body != "" {
				c.name = "big " + c.name
			}
			cases = append(cases, c)
		}
	}
	for _, c := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_"))
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		eof := "EOF"
		e := lineEdit{line: []byte(c.line), regexp: c.regexp, search: c.search, firstmatch: c.first, insertafter: &eof}
		if stop := e.compile(&c.line); stop != nil {
			t.Fatalf("%s: %s", c.name, stop.Msg)
		}
		after, msg, err := e.present([]byte(c.content))
		if err != nil {
			t.Fatal(err)
		}
		same := msg == "" && bytes.Equal(after, []byte(c.content))
		w, ok := e.hostDecides(env, nil)
		if !ok {
			t.Fatalf("%s: not decided on the host", c.name)
		}
		awks()
		f, noop, fail, err := shared.ReadTextUnless(context.Background(), env, p, shared.FileAttrs{}, w)
		if err != nil || fail != nil {
			t.Fatalf("%s: %v %+v", c.name, err, fail)
		}
		// busybox's awk ends a record at a NUL: the host does not ask it
		awkRead := len(c.content) > 1024 || strings.Contains(c.content, "\x00")
		mayLeave := strings.HasSuffix(c.name, "crs then exact") || strings.HasSuffix(c.name, "no match") ||
			strings.HasSuffix(c.name, "not at start") || (os.Getenv("TENDER_TEST_BUSYBOX") != "" && awkRead)
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

// Only a regexp that is a literal, anchored or not, is looked for on
// the host.
func TestLiteralPattern(t *testing.T) {
	for re, want := range map[string]string{
		"^Port": "s Port", "Port 22": "a Port 22", "= on$": "e = on", "^b$": "x b", "^k='v' \"w\"": "s k='v' \"w\"",
		"^#?Port": "", "^net.ipv4": "", `^a\.b`: "", "^$": "", "": "", "^": "", "a|b": "", "(a)": "", "a{2}": "", "[a]": "",
		"a+": "", "a*": "", "$x": "",
	} {
		lit, where, ok := literalPattern(re)
		got := ""
		if ok {
			got = string(where) + " " + lit
		}
		if got != want {
			t.Errorf("%q: %q, want %q", re, got, want)
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
	if f, noop, fail, err := shared.ReadTextUnless(ctx, env, p, shared.FileAttrs{Mode: "0600"}, shared.LineWant{Line: "x=1"}); err != nil || fail != nil ||
		noop || string(f.Content) != "x=1\n" || !shared.AttrsChanged(f.Attrs) {
		t.Fatalf("mode differs: noop %v %+v %v %v", noop, f, fail, err)
	}
	if _, noop, fail, err := shared.ReadTextUnless(ctx, env, p, shared.FileAttrs{Mode: "0644"}, shared.LineWant{Line: "x=1"}); err != nil || fail != nil || !noop {
		t.Fatalf("mode as asked: noop %v %v %v", noop, fail, err)
	}
	if f, noop, fail, err := shared.ReadTextUnless(ctx, env, filepath.Join(dir, "none"), shared.FileAttrs{}, shared.LineWant{Line: "x=1"}); err != nil ||
		fail != nil || noop || f.Exists {
		t.Fatalf("missing: noop %v %+v %v %v", noop, f, fail, err)
	}
	if _, _, fail, err := shared.ReadTextUnless(ctx, env, dir, shared.FileAttrs{}, shared.LineWant{Line: "x=1"}); err != nil || fail == nil ||
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
	// the same task with a regexp that is not a literal is decided on
	// the controller
	slow := modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": p, "regexp": "^ke.=", "line": "key=value", "mode": "0640"})
	if cc.Last.Final || !strings.Contains(string(cc.LastOut.Stdout), "--content--") {
		t.Fatalf("regexp: the host decided (final %v)", cc.Last.Final)
	}
	if quick.Msg != slow.Msg || !reflect.DeepEqual(quick.Data, slow.Data) || quick.Changed != slow.Changed {
		t.Fatalf("host no-op %+v, controller's %+v", quick, slow)
	}
}
