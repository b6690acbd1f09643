package transport_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	. "github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/transporttest"
)

// runWrapped starts w.Command with sh as a transport would, with PATH
// prefixed by dir (where a test may put a stand-in sudo).
func runWrapped(t *testing.T, w Wrapped, pathDir string) (string, string, int) {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", w.Command)
	c.Stdin = w.Stdin
	if pathDir != "" {
		c.Env = append(os.Environ(), "PATH="+pathDir+":"+os.Getenv("PATH"))
	}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestWrapRunsScriptWithEnvAndStdin(t *testing.T) {
	w, err := Wrap(Cmd{
		Script: "echo \"$GREETING $(cat)\"\nprintf '%s\\n' \"$ODD\"\nexit 7",
		Env:    map[string]string{"GREETING": "hello", "ODD": "a'b; rm -rf / $HOME"},
		Stdin:  strings.NewReader("world"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(w.Command, "hello") || strings.Contains(w.Command, "GREETING") {
		t.Fatalf("script or values leaked onto the command line: %s", w.Command)
	}
	out, _, code := runWrapped(t, w, "")
	if want := "hello world\na'b; rm -rf / $HOME\n"; out != want || code != 7 {
		t.Fatalf("got %q exit %d, want %q exit 7", out, code, want)
	}
}

func TestWrapScriptWithoutTrailingNewlineAndBlankLines(t *testing.T) {
	w, err := Wrap(Cmd{Script: "x=1\n\n\nif [ $x = 1 ]; then\n  echo one\nfi"})
	if err != nil {
		t.Fatal(err)
	}
	if out, _, code := runWrapped(t, w, ""); out != "one\n" || code != 0 {
		t.Fatalf("got %q exit %d", out, code)
	}
}

func TestWrapRejectsBadEnvName(t *testing.T) {
	if _, err := Wrap(Cmd{Script: "true", Env: map[string]string{"A;B": "x"}}); err == nil {
		t.Fatal("an invalid variable name must be refused")
	}
}

func TestWrapBecomePasswordOnStdinOnly(t *testing.T) {
	dir, log := transporttest.FakeSudo(t)
	const secret = "s3cret pass"
	w, err := Wrap(Cmd{Script: "echo as:$(cat)", Stdin: strings.NewReader("input"),
		Become: &Become{User: "postgres", Password: secret}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(w.Command, secret) {
		t.Fatal("the become password is on the command line")
	}
	out, errOut, code := runWrapped(t, w, dir)
	if out != "as:input\n" || code != 0 {
		t.Fatalf("got %q (stderr %q) exit %d", out, errOut, code)
	}
	data, _ := os.ReadFile(log)
	if !strings.Contains(string(data), "password: "+secret) || !strings.Contains(string(data), "-S -p  -H -u postgres --") {
		t.Fatalf("sudo did not get the password on stdin and the user: %s", data)
	}
}

func TestWrapBecomeWithoutPassword(t *testing.T) {
	dir, log := transporttest.FakeSudo(t)
	w, err := Wrap(Cmd{Script: "echo ok", Become: &Become{}})
	if err != nil {
		t.Fatal(err)
	}
	if out, _, code := runWrapped(t, w, dir); out != "ok\n" || code != 0 {
		t.Fatalf("got %q exit %d", out, code)
	}
	if data, _ := os.ReadFile(log); !strings.Contains(string(data), "-n -p  -H -u root --") {
		t.Fatalf("sudo flags: %s", data)
	}
	if _, err := Wrap(Cmd{Script: "true", Become: &Become{Method: "pbrun"}}); err == nil {
		t.Fatal("an unsupported become method must be refused")
	}
}

// fakeBecome puts a stand-in for su or doas in a new directory: it logs
// its arguments and runs the command it was given as the current user.
func fakeBecome(t *testing.T, method string) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	log = dir + "/" + method + ".log"
	script := "#!/bin/sh\necho \"args: $*\" >> '" + log + "'\n"
	if method == "su" {
		script += `[ "$2" = -c ] || exit 99
exec /bin/sh -c "$3"
`
	} else {
		script += `[ "$1 $2" = "-n -u" ] || exit 99
shift 3
exec "$@"
`
	}
	if err := os.WriteFile(dir+"/"+method, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, log
}

// TestWrapBecomeSuAndDoas: su and doas run the script as the user, with
// stdin passed through and nothing of the script on the command line; a
// become password with them is refused (they read it from a terminal).
func TestWrapBecomeSuAndDoas(t *testing.T) {
	for _, method := range []string{"su", "doas"} {
		dir, log := fakeBecome(t, method)
		w, err := Wrap(Cmd{Script: "echo secret-looking $(cat)", Stdin: strings.NewReader("input"), Become: &Become{Method: method, User: "svc"}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(w.Command, "secret-looking") {
			t.Fatalf("%s: the script is on the command line: %s", method, w.Command)
		}
		out, errOut, code := runWrapped(t, w, dir)
		if out != "secret-looking input\n" || code != 0 {
			t.Fatalf("%s: got %q (stderr %q) exit %d", method, out, errOut, code)
		}
		data, _ := os.ReadFile(log)
		want := map[string]string{"su": "args: svc -c /bin/sh -c ", "doas": "args: -n -u svc /bin/sh -c "}[method]
		if !strings.HasPrefix(string(data), want) {
			t.Errorf("%s was run as %q, want %q…", method, data, want)
		}
		if _, err := Wrap(Cmd{Script: "true", Become: &Become{Method: method, Password: "pw"}}); err == nil || !strings.Contains(err.Error(), "terminal") {
			t.Errorf("%s with a password: %v", method, err)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, s := range []string{"", "plain", "a; rm -rf /", "it's", "$(id)", "`id`", "a\nb"} {
		out, err := exec.Command("/bin/sh", "-c", "printf %s "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("Quote(%q) round trip = %q, %v", s, out, err)
		}
	}
}

// TestWrapBecomeFlagsAndExe: become_flags replace the method's own flags
// (sudo keeps -S or -n: how the password travels is tender's) and
// become_exe names the program.
func TestWrapBecomeFlagsAndExe(t *testing.T) {
	for _, c := range []struct {
		b    Become
		want string
	}{
		{Become{Flags: "-E -S"}, "sudo -n -p '' -E -u root -- /bin/sh -c "},
		{Become{Exe: "/opt/bin/sudo", Password: "x"}, "/opt/bin/sudo -S -p '' -H -u root -- /bin/sh -c "},
		{Become{Method: "su", Flags: "-l", User: "svc"}, "su -l svc -c "},
		{Become{Method: "doas", Exe: "/usr/local/bin/doas"}, "/usr/local/bin/doas -n -u root /bin/sh -c "},
	} {
		w, err := Wrap(Cmd{Script: "true", Become: &c.b})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(w.Command, c.want) {
			t.Errorf("%+v: %q, want %q…", c.b, w.Command, c.want)
		}
	}
}

// The inline form quotes the script as Quote does, in one piece, and
// Head and HeadBytes give Wrap's own part of Stdin, Prefix bytes long.
func TestWrapInlineAndHead(t *testing.T) {
	for _, script := range []string{"echo hi", "echo 'it''s'\n", "'", "a'b'c\n'"} {
		w, err := Wrap(Cmd{Script: script, Env: map[string]string{"X": "y z"}, Stdin: strings.NewReader("in")})
		if err != nil {
			t.Fatal(err)
		}
		all, _ := io.ReadAll(w.Stdin)
		head, _ := io.ReadAll(w.Head())
		if string(all) != string(head)+"in" || len(head) != w.Prefix || string(w.HeadBytes([]byte("x"))) != string(head)+"x" {
			t.Errorf("%q: stdin %q, head %q (prefix %d)", script, all, head, w.Prefix)
		}
		text := string(head[strings.IndexByte(string(head), '\n')+1:])
		if want := "( eval " + Quote(text) + " )"; w.Inline != want {
			t.Errorf("%q: inline %q, want %q", script, w.Inline, want)
		}
	}
}
