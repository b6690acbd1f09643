package shared

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEntryByName runs sys_funcs.sh's _t_entby in every shell a host's
// /bin/sh may be, with a stand-in getent that answers with the entry of
// an id, another name, for digits, and NAME:asked otherwise. The first
// look at the name the shell handed an entry for takes that entry with
// no getent; a second look, another name, a name the handed lines lack
// or one that would match as a pattern ask getent; a name of digits
// getent took for an id is found by name in the /etc file, and one the
// file lacks has none.
func TestEntryByName(t *testing.T) {
	dir := t.TempDir()
	for _, db := range []string{"passwd", "group"} {
		if err := os.WriteFile(filepath.Join(dir, db), []byte("root:x:0:0\n1000:x:1005:100::/home/1000:/bin/sh\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fns := strings.ReplaceAll(SysFuncsBody, `"/etc/$1"`, `"`+dir+`/$1"`)
	if fns == SysFuncsBody {
		t.Fatal(`_t_entby does not read "/etc/$1"`)
	}
	stub := `_t_ent() { case $2 in *[!0-9]*) echo "$2:asked:1:1::/:/bin/sh" ;; *) echo "someone:x:$2:$2::/:/bin/sh" ;; esac; }` + "\n"
	handed := "\nother:x:5:5::/o:/bin/sh\nalice:x:1000:1000:Alice:/home/alice:/bin/bash\na*:x:7:7::/:/bin/sh\n"
	show := `printf '%s\n' "$_t_eb"` + "\n"
	for _, c := range []struct {
		name, sp, script string
		want             []string
	}{
		{"first look, twice", "alice", `_t_entby passwd alice; ` + show + `_t_entby passwd alice; ` + show,
			[]string{"alice:x:1000:1000:Alice:/home/alice:/bin/bash", "alice:asked:1:1::/:/bin/sh"}},
		{"another name", "alice", `_t_entby group other; ` + show, []string{"other:asked:1:1::/:/bin/sh"}},
		{"not handed", "bob", `_t_entby passwd bob; ` + show, []string{"bob:asked:1:1::/:/bin/sh"}},
		{"a pattern's characters", "a?", `_t_entby passwd 'a?'; ` + show, []string{"a?:asked:1:1::/:/bin/sh"}},
		{"digits", "", `_t_entby passwd 1000; ` + show + `_t_entby group 1000; ` + show + `_t_entby group 1001; ` + show,
			[]string{"1000:x:1005:100::/home/1000:/bin/sh", "1000:x:1005:100::/home/1000:/bin/sh", ""}},
	} {
		for _, sh := range shells() {
			cmd := exec.Command(sh[0], append(sh[1:], "-c", fns+stub+c.script)...)
			cmd.Env = append(os.Environ(), "__tender_sp="+c.sp, "__tender_sf="+handed)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s, %s: %v", sh[0], c.name, err)
			}
			if got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("%s, %s: %q, want %q", sh[0], c.name, got, c.want)
			}
		}
	}
}
