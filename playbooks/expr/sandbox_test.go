package expr

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testSandbox allows the lookups named and paths under its directories,
// after making them absolute and resolving the symlinks of the part that
// exists (sandbox.Policy is the real one; expr cannot import it).
type testSandbox struct{ lookups, read, write, env []string }

func (s testSandbox) CheckEnv(n string) error {
	if slices.Contains(s.env, n) {
		return nil
	}
	return fmt.Errorf("sandbox denies the variable %s", n)
}

func (s testSandbox) CheckLookup(n string) error {
	if slices.Contains(s.lookups, n) {
		return nil
	}
	return fmt.Errorf("sandbox denies the lookup %s", n)
}

func (s testSandbox) CheckRead(p string) error {
	return under("reading", p, append(s.read, s.write...))
}
func (s testSandbox) CheckWrite(p string) error {
	return under("writing", p, s.write)
}

// Open opens what CheckRead allows, except a file named racy*: as if it
// had become a link out after the check, Open refuses it.
func (s testSandbox) Open(p string) (*os.File, error) {
	if err := s.CheckRead(p); err != nil {
		return nil, err
	}
	if strings.HasPrefix(filepath.Base(p), "racy") {
		return nil, fmt.Errorf("sandbox denies reading %s: it changed", p)
	}
	return os.Open(p)
}

func under(verb, p string, dirs []string) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	real := abs
	for dir := abs; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			real = filepath.Join(r, strings.TrimPrefix(abs, dir))
			break
		}
		if dir == "/" {
			break
		}
	}
	for _, d := range dirs {
		if real == d || strings.HasPrefix(real, d+"/") {
			return nil
		}
	}
	return fmt.Errorf("sandbox denies %s %s", verb, p)
}

// sandboxed is a playbook directory pb/ (readable, pb/pw writable) beside
// secret/, with links out of pb/: files/out.txt and templates/out.j2 lead
// to secret/s.txt, up -> ../secret.
func sandboxed(t *testing.T, lookups ...string) (root string, scope *Vars) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{
		"pb/files/a.txt": "A", "pb/data.ini": "[s]\nk=v\n", "pb/data.csv": "k,v\n",
		"pb/templates/t.j2": "t{% include 'inc.j2' %}", "pb/templates/inc.j2": "i",
		"pb/templates/evil.j2": "{% include 'out.j2' %}", "pb/templates/imp.j2": "{% import 'out.j2' as m %}",
		"secret/s.txt": "S", "secret/s.ini": "[s]\nk=secret\n", "secret/s.csv": "k,secret\n",
	})
	for link, target := range map[string]string{"pb/files/out.txt": "../../secret/s.txt",
		"pb/templates/out.j2": "../../secret/s.txt", "pb/up": "../secret"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	pb := filepath.Join(root, "pb")
	sb := testSandbox{lookups: lookups, read: []string{pb}, write: []string{filepath.Join(pb, "pw")}}
	return root, &Vars{Layers: []map[string]any{{"root": root}}, Env: &Env{SearchPaths: []string{pb}, BaseDir: pb, Sandbox: sb}}
}

func TestSandboxAllowsWhatItStates(t *testing.T) {
	root, scope := sandboxed(t, "file", "template", "fileglob", "first_found", "ini", "csvfile", "password")
	for src, want := range map[string]string{
		"{{ lookup('file', 'a.txt') }}":                                              "A",
		"{{ lookup('template', 't.j2') }}":                                           "ti",
		"{{ lookup('fileglob', 'a.*') }}":                                            root + "/pb/files/a.txt",
		"{{ lookup('first_found', ['nope.txt', 'a.txt']) }}":                         root + "/pb/files/a.txt",
		"{{ lookup('ini', 'k section=s file=data.ini') }}":                           "v",
		"{{ lookup('csvfile', 'k file=data.csv delimiter=,') }}":                     "v",
		"{{ lookup('password', 'pw/new length=4') | length }}":                       "4",
		"{{ (root ~ '/pb/files/a.txt') is file }}":                                   "True",
		"{{ (root ~ '/pb/files/../data.ini') | realpath }}":                          root + "/pb/data.ini",
		"{{ (root ~ '/pb/nope') is exists }}":                                        "False",
		"{{ (root ~ '/pb/data.ini') is same_file(root ~ '/pb/files/../data.ini') }}": "True",
	} {
		got, err := Render(src, scope)
		if err != nil || Str(got) != want {
			t.Errorf("%s: got %q, %v; want %q", src, Str(got), err, want)
		}
	}
	if _, err := os.Stat(root + "/pb/pw/new"); err != nil {
		t.Errorf("the password was not stored: %v", err)
	}
}

func TestSandboxDenies(t *testing.T) {
	root, scope := sandboxed(t, "file", "template", "fileglob", "first_found", "ini", "csvfile", "password", "items")
	for src, want := range map[string]string{
		"{{ lookup('env', 'HOME') }}":                                  "denies the lookup env",
		"{{ lookup('file', '/etc/hostname') }}":                        "denies reading /etc/hostname",
		"{{ lookup('file', '../../secret/s.txt') }}":                   "denies reading " + root + "/secret/s.txt",
		"{{ lookup('file', 'out.txt') }}":                              "denies reading " + root + "/pb/files/out.txt",
		"{{ lookup('file', '/etc/hostname', errors='ignore') }}":       "denies reading /etc/hostname",
		"{{ query('file', '/etc/hostname', errors='warn') }}":          "denies reading /etc/hostname",
		"{{ lookup('fileglob', '*.txt') }}":                            "denies reading " + root + "/pb/files/out.txt",
		"{{ lookup('fileglob', '/etc/*') }}":                           "denies reading /etc",
		"{{ lookup('first_found', ['/etc/hostname']) }}":               "denies reading /etc/hostname",
		"{{ lookup('first_found', ['up/s.txt'], skip=True) }}":         "denies reading " + root + "/pb/up/s.txt",
		"{{ lookup('ini', 'k section=s file=up/s.ini') }}":             "denies reading " + root + "/pb/up/s.ini",
		"{{ lookup('csvfile', 'k file=/etc/passwd') }}":                "denies reading /etc/passwd",
		"{{ lookup('template', 'evil.j2') }}":                          "denies reading " + root + "/pb/templates/out.j2",
		"{{ lookup('template', 'imp.j2') }}":                           "denies reading " + root + "/pb/templates/out.j2",
		"{{ lookup('template', '../up/s.txt') }}":                      "denies reading " + root + "/pb/up/s.txt",
		"{{ lookup('password', '/tmp/tender-sandbox-test/pw') }}":      "denies reading /tmp/tender-sandbox-test/pw",
		"{{ lookup('password', 'new length=4') }}":                     "denies writing " + root + "/pb/new",
		"{{ lookup('password', 'pw/../up/s.txt') }}":                   "denies reading " + root + "/pb/up/s.txt",
		"{% include 'templates/out.j2' %}":                             "denies reading " + root + "/pb/templates/out.j2",
		"{{ '/etc/passwd' is file }}":                                  "denies reading /etc/passwd",
		"{{ '/etc/passwd' is is_file }}":                               "denies reading /etc/passwd",
		"{{ '/etc' is is_dir }}":                                       "denies reading /etc",
		"{{ '/etc/passwd' is is_link }}":                               "denies reading /etc/passwd",
		"{{ '/proc' is is_mount }}":                                    "denies reading /proc",
		"{{ (root ~ '/pb/data.ini') is is_same_file('/etc/passwd') }}": "denies reading /etc/passwd",
		"{{ (root ~ '/pb/up/s.txt') is exists }}":                      "denies reading " + root + "/pb/up/s.txt",
		"{{ (root ~ '/pb/data.ini') is same_file('/etc/passwd') }}":    "denies reading /etc/passwd",
		"{{ ['/etc/passwd'] | select('file') | list }}":                "denies reading /etc/passwd",
		"{{ '/etc/*' | fileglob }}":                                    "denies reading /etc",
		"{{ (root ~ '/pb/files/*.txt') | fileglob }}":                  "denies reading " + root + "/pb/files/out.txt",
		"{{ '/etc/passwd' | realpath }}":                               "denies reading /etc/passwd",
	} {
		got, err := Render(src, scope)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %q, %v; want an error with %q", src, Str(got), err, want)
		}
	}
	// check mode stores nothing, but a write the sandbox refuses is
	// refused there too
	scope.Env.NoWrite = true
	if _, err := Render("{{ lookup('password', 'new') }}", scope); err == nil || !strings.Contains(err.Error(), "denies writing") {
		t.Errorf("check mode: %v", err)
	}
	// with_<lookup> loops are lookups
	if _, err := RunLookupIn(scope, "dict", []any{map[string]any{"a": 1}}, nil); err == nil || !strings.Contains(err.Error(), "denies the lookup dict") {
		t.Errorf("with_dict: %v", err)
	}
	if got, err := RunLookupIn(scope, "items", []any{1}, nil); err != nil || len(got) != 1 {
		t.Errorf("with_items: %v %v", got, err)
	}
}

// TestSandboxEnvironment: under a sandbox the env lookup and the
// expandvars and expanduser filters see only the variables it allows;
// the others look unset (expandvars leaves $NAME as Python leaves an
// unknown variable, the env lookup gives its default), and expanduser
// leaves ~ alone unless HOME is allowed. Without a sandbox every
// variable shows.
func TestSandboxEnvironment(t *testing.T) {
	vars := map[string]string{"OK": "fine", "SECRET": "s3cret", "HOME": "/home/op"}
	getenv := func(n string) (string, bool) { v, ok := vars[n]; return v, ok }
	sb := testSandbox{lookups: []string{"env"}, env: []string{"OK"}}
	scope := &Vars{Env: &Env{Getenv: getenv, Sandbox: sb}}
	cases := map[string][2]string{ // template: sandboxed, unsandboxed
		"{{ '$OK ${OK} $SECRET ${SECRET} $NONE' | expandvars }}":            {"fine fine $SECRET ${SECRET} $NONE", "fine fine s3cret s3cret $NONE"},
		"{{ lookup('env', 'OK') }}":                                         {"fine", "fine"},
		"{{ lookup('env', 'SECRET') }}":                                     {"", "s3cret"},
		"{{ lookup('env', 'SECRET', default='d') }}":                        {"d", "s3cret"},
		"{{ query('env', 'OK', 'SECRET', 'HOME') | join(',') }}":            {"fine,,", "fine,s3cret,/home/op"},
		"{{ '~/x' | expanduser }} {{ '~' | expanduser }}":                   {"~/x ~", "/home/op/x /home/op"},
		"{{ '~no-such-user-x/x' | expanduser }} {{ '$HOME' | expandvars }}": {"~no-such-user-x/x $HOME", "~no-such-user-x/x /home/op"},
	}
	for src, want := range cases {
		for i, env := range []*Env{{Getenv: getenv, Sandbox: sb}, {Getenv: getenv}} {
			scope.Env = env
			got, err := Render(src, scope)
			if err != nil || Str(got) != want[i] {
				t.Errorf("%s (sandboxed: %t): got %q, %v; want %q", src, i == 0, Str(got), err, want[i])
			}
		}
	}
	// a sandbox never lets ~name read the user database
	scope.Env = &Env{Getenv: getenv, Sandbox: sb}
	if got, err := Render("{{ '~root/x' | expanduser }}", scope); err != nil || Str(got) != "~root/x" {
		t.Errorf("~root under a sandbox: %q, %v", Str(got), err)
	}
	// HOME allowed: expanduser uses it; the user database is never read
	scope.Env = &Env{Getenv: getenv, Sandbox: testSandbox{env: []string{"HOME"}}}
	if got, err := Render("{{ '~/x' | expanduser }}", scope); err != nil || Str(got) != "/home/op/x" {
		t.Errorf("HOME allowed: %q, %v", Str(got), err)
	}
	delete(vars, "HOME")
	if got, err := Render("{{ '~/x' | expanduser }}", scope); err != nil || Str(got) != "~/x" {
		t.Errorf("HOME allowed but unset: %q, %v", Str(got), err)
	}
}

// TestSandboxLookupsReadThroughOpen: what lookups and template includes
// read, they open through the sandbox's Open (which makes sure the file
// is still inside), not by path after the check: a file Open refuses
// (racy*, as if swapped for a link out since the check) fails them.
func TestSandboxLookupsReadThroughOpen(t *testing.T) {
	root, scope := sandboxed(t, "file", "template", "ini", "csvfile", "password", "unvault")
	writeFiles(t, root, map[string]string{
		"pb/files/racy.txt": "R", "pb/templates/racy.j2": "R", "pb/racy.ini": "[s]\nk=v\n", "pb/racy.csv": "k,v\n",
		"pb/templates/inc.j2": "{% include 'racy.j2' %}", "pb/pw/racy": "pw",
	})
	for _, src := range []string{
		"{{ lookup('file', 'racy.txt') }}",
		"{{ lookup('unvault', 'racy.txt') }}",
		"{{ lookup('template', 'racy.j2') }}",
		"{{ lookup('template', 'inc.j2') }}",
		"{{ lookup('ini', 'k section=s file=racy.ini') }}",
		"{{ lookup('csvfile', 'k file=racy.csv delimiter=,') }}",
		"{{ lookup('password', 'pw/racy') }}",
	} {
		got, err := Render(src, scope)
		if err == nil || !strings.Contains(err.Error(), "it changed") {
			t.Errorf("%s: got %q, %v; want Open's refusal", src, Str(got), err)
		}
	}
}
