package packages

import (
	"slices"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// npmTestJob decodes args and builds the task's job as Run does.
func npmTestJob(t *testing.T, args tasks.Args) *npmJob {
	t.Helper()
	a, err := npmArgs.Decode(args)
	if err != nil {
		t.Fatal(err)
	}
	j := &npmJob{a: a, name: a.Str("name")}
	j.nameVersion = j.name
	if v := a.Str("version"); v != "" && a.Str("state") != "absent" {
		j.nameVersion = j.name + "@" + v
	}
	if e := a.Str("executable"); e != "" {
		j.exe = strings.Split(e, " ")
	}
	return j
}

func TestNpmArgv(t *testing.T) {
	j := npmTestJob(t, tasks.Args{"name": "a", "version": "1.0.0", "path": "/p", "global": true, "production": true,
		"ignore_scripts": true, "unsafe_perm": true, "registry": "http://r/", "no_optional": true, "no_bin_links": true})
	want := "npm install --global --production --ignore-scripts --unsafe-perm a@1.0.0 --registry http://r/ --no-optional --no-bin-links"
	if got := strings.Join(j.argv("install"), " "); got != want {
		t.Errorf("install:\n%s\nwant\n%s", got, want)
	}
	// list takes no package and no --production; outdated takes the package
	if got := strings.Join(j.argv("list"), " "); got != "npm list --json --long --global --ignore-scripts --unsafe-perm --registry http://r/ --no-optional --no-bin-links" {
		t.Errorf("list: %s", got)
	}
	if got := j.argv("outdated"); !slices.Contains(got, "a@1.0.0") || slices.Contains(got, "--production") {
		t.Errorf("outdated: %q", got)
	}
	j = npmTestJob(t, tasks.Args{"name": "a", "version": "1.0.0", "path": "/p", "state": "absent", "executable": "/opt/npm  --x"})
	if got := j.argv("uninstall"); !slices.Equal(got, []string{"/opt/npm", "", "--x", "uninstall", "a"}) {
		t.Errorf("uninstall with an executable of several words: %q", got)
	}
}

func TestNpmDecide(t *testing.T) {
	listed := `{"dependencies": {"a": {"version": "1.1.0"}, "b": {"missing": true}, "c": {"version": "2.0.0", "invalid": ""}}}`
	for _, c := range []struct {
		args     tasks.Args
		list     string
		outdated string
		acts     []string
	}{
		{tasks.Args{"name": "a", "path": "/p"}, `{"dependencies": {"a": {"version": "1.1.0"}}}`, "", nil},
		{tasks.Args{"name": "a", "version": "1.0.0", "path": "/p"}, `{"dependencies": {"a": {"version": "1.1.0"}}}`, "", []string{"install"}},
		{tasks.Args{"name": "a", "version": "1.1.0", "path": "/p"}, `{"dependencies": {"a": {"version": "1.1.0"}}}`, "", nil},
		{tasks.Args{"path": "/p"}, listed, "", []string{"install"}}, // b is missing
		{tasks.Args{"name": "a", "path": "/p"}, "", "", []string{"install"}},
		{tasks.Args{"name": "a", "path": "/p"}, `{"name": "p"}`, "", []string{"install"}},
		{tasks.Args{"name": "a", "path": "/p", "state": "latest"}, `{"dependencies": {"a": {"version": "1.0.0"}}}`,
			"Package  Current  Wanted  Latest\na  1.0.0  1.1.0  1.1.0\n", []string{"update"}},
		{tasks.Args{"name": "a", "path": "/p", "state": "latest"}, `{"dependencies": {"a": {"version": "1.1.0"}}}`, "\n", nil},
		{tasks.Args{"name": "a", "path": "/p", "state": "absent"}, `{"dependencies": {"a": {"version": "1.1.0"}}}`, "", []string{"uninstall"}},
		{tasks.Args{"name": "b", "path": "/p", "state": "absent"}, listed, "", nil},
		{tasks.Args{"path": "/p", "ci": true, "state": "absent", "name": "x"}, "", "", []string{"ci"}},
	} {
		j := npmTestJob(t, c.args)
		acts, r, done := j.decide(shared.Blobs{Blobs: map[string]string{"out.list": c.list, "out.outdated": c.outdated}})
		if !slices.Equal(acts, c.acts) || done != (len(c.acts) == 0) || r.Changed != (len(c.acts) > 0) {
			t.Errorf("%v with %s: acts %q (done %v, changed %v), want %q", c.args, c.list, acts, done, r.Changed, c.acts)
		}
	}
	j := npmTestJob(t, tasks.Args{"name": "a", "path": "/p"})
	if _, r, done := j.decide(shared.Blobs{Blobs: map[string]string{"out.list": "npm ERR! not json"}}); !done || !r.Failed ||
		!strings.HasPrefix(r.Msg, "Failed to parse NPM output with error") {
		t.Errorf("output that is not JSON: %+v", r)
	}
}

func TestNpmScript(t *testing.T) {
	j := npmTestJob(t, tasks.Args{"name": "a", "path": "/srv/app"})
	j.check = true
	s := j.script([]string{"list"}, false)
	if !strings.Contains(s, "_n_path /srv/app 0\n") || !strings.Contains(s, "_t_x list any \"$_t_b\" list --json --long\n") {
		t.Errorf("a check-mode read:\n%s", s[strings.LastIndex(s, "_t_need"):])
	}
	j.check = false
	s = j.script([]string{"install", "update"}, true)
	if !strings.Contains(s, "_n_path /srv/app 1\n") || !strings.Contains(s, "_t_x install 0 \"$_t_b\" install a\n_t_x update 0") {
		t.Errorf("the changes:\n%s", s[strings.LastIndex(s, "_t_need"):])
	}
}
