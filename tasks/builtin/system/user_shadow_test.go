package system

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShadowLookup runs user.sh's _t_shadow on a shadow file longer than
// what the shell reads itself, for names before and past that line, a
// last line without its newline, a missing name and a name that would
// match as a pattern.
func TestShadowLookup(t *testing.T) {
	fn := regexp.MustCompile(`(?ms)^_t_shadow\(\) \{.*?^\}\n`).FindString(userScript)
	if fn == "" {
		t.Fatal("user.sh has no _t_shadow")
	}
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "user%d:$6$x%d:19000:0:99999:7:::\n", i, i)
	}
	b.WriteString("last:!:1:2:3:4:5:6:")
	shadow := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(shadow, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	fn = strings.ReplaceAll(fn, "/etc/shadow", shadow)
	cases := map[string]string{
		"user1": "user1:$6$x1:19000:0:99999:7:::", "user256": "user256:$6$x256:19000:0:99999:7:::",
		"user257": "user257:$6$x257:19000:0:99999:7:::", "user300": "user300:$6$x300:19000:0:99999:7:::",
		"last": "last:!:1:2:3:4:5:6:", "nobody": "", "user1*": "",
	}
	for name, want := range cases {
		out, err := exec.Command("sh", "-c", fn+`_t_shadow "$1"; printf %s "$_s"`, "sh", name).CombinedOutput()
		if err != nil || string(out) != want {
			t.Errorf("_t_shadow %q = %q (%v), want %q", name, out, err, want)
		}
	}
}

// TestPwentTakesHandedEntry runs user.sh's _t_pwentv with an entry the
// shell handed it (transport.Cmd.Passwd): the first look at the named
// user takes it, with no getent; a second look, another user, a name
// the handed lines do not hold or one that would match as a pattern
// ask getent (here a stand-in that says which name it was asked).
func TestPwentTakesHandedEntry(t *testing.T) {
	fn := regexp.MustCompile(`(?ms)^_t_pwentv\(\) \{.*?^\}\n`).FindString(userScript)
	if fn == "" {
		t.Fatal("user.sh has no _t_pwentv")
	}
	stub := `_t_ent() { echo "$2:asked:1:1::/:/bin/sh"; }` + "\n"
	handed := "\nother:x:5:5::/o:/bin/sh\nalice:x:1000:1000:Alice:/home/alice:/bin/bash\na*:x:7:7::/:/bin/sh\n"
	show := `printf '%s\n' "$_t_pe"` + "\n"
	for _, c := range []struct {
		name, sp, script string
		want             []string
	}{
		{"first look, twice", "alice", `_t_pwentv alice; ` + show + `_t_pwentv alice; ` + show,
			[]string{"alice:x:1000:1000:Alice:/home/alice:/bin/bash", "alice:asked:1:1::/:/bin/sh"}},
		{"another user", "alice", `_t_pwentv other; ` + show, []string{"other:asked:1:1::/:/bin/sh"}},
		{"not handed", "bob", `_t_pwentv bob; ` + show, []string{"bob:asked:1:1::/:/bin/sh"}},
		{"a pattern's characters", "a?", `_t_pwentv 'a?'; ` + show, []string{"a?:asked:1:1::/:/bin/sh"}},
	} {
		cmd := exec.Command("sh", "-c", stub+fn+c.script)
		cmd.Env = append(os.Environ(), "__tender_sp="+c.sp, "__tender_sf="+handed)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Split(strings.TrimSpace(string(out)), "\n"); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEntryOfDigitsByName: a user or group named by digits, which
// getent takes for an id (here a stand-in that answers with the entry of
// that id, another name), is found by name in the passwd or group file,
// as Ansible's getpwnam and getgrnam find it; a name of digits the file
// lacks has no entry.
func TestEntryOfDigitsByName(t *testing.T) {
	dir := t.TempDir()
	stub := `_t_ent() { echo "someone:x:$2:$2::/:/bin/sh"; }` + "\n"
	for _, c := range []struct {
		script, fn, file, show string
	}{
		{userScript, "_t_pwentv", "passwd", `"$_t_pe"`},
		{groupScript, "_t_grent", "group", `"$ent"`},
	} {
		fn := regexp.MustCompile(`(?ms)^` + c.fn + `\(\) \{.*?^\}\n`).FindString(c.script)
		if fn == "" {
			t.Fatalf("no %s", c.fn)
		}
		db := filepath.Join(dir, c.file)
		if err := os.WriteFile(db, []byte("root:x:0:0\n1000:x:1005:100::/home/1000:/bin/sh\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		fn = strings.ReplaceAll(fn, "/etc/"+c.file, db)
		for name, want := range map[string]string{"1000": "1000:x:1005:100::/home/1000:/bin/sh", "1001": ""} {
			out, err := exec.Command("sh", "-c", stub+fn+c.fn+` "$1"; printf %s `+c.show, "sh", name).Output()
			if err != nil || string(out) != want {
				t.Errorf("%s %s = %q (%v), want %q", c.fn, name, out, err, want)
			}
		}
	}
}
