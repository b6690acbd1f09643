package packages

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// fakePip keeps installed packages as $FAKE_STATE/pkgs/<name> holding the
// version; every package's newest version is 2.0.
const fakePip = `
d=$FAKE_STATE/pkgs; mkdir -p "$d"
echo "$0 $*" >>"$FAKE_STATE/log"
cmd=$1; shift
up=; force=
inst() {
	case $1 in
	'<'*|'>'*|'!'*) echo "ERROR: Invalid requirement: '$1'" >&2; exit 1 ;;
	*'<'*|*'>'*) n=${1%%[<>]*}
		[ -f "$d/$n" ] && { echo "Requirement already satisfied: $n"; return; }
		echo 1.0 >"$d/$n"; echo "Successfully installed $n-1.0"; return ;;
	esac
	n=${1%%==*}; v=1.0; case $1 in *==*) v=${1#*==} ;; esac
	[ -n "$up" ] && v=2.0
	[ -n "$force" ] && { echo "$v" >"$d/$n"; echo "Successfully installed $n-$v"; return; }
	[ -f "$d/$n" ] && [ "$(cat "$d/$n")" = "$v" ] && { echo "Requirement already satisfied: $n"; return; }
	[ -f "$d/$n" ] && [ -z "$up" ] && case $1 in *==*) ;; *) echo "Requirement already satisfied: $n"; return ;; esac
	echo "$v" >"$d/$n"; echo "Successfully installed $n-$v"
}
case $cmd in
list|freeze) for f in "$d"/*; do [ -e "$f" ] && echo "$(basename "$f")==$(cat "$f")"; done; exit 0 ;;
install)
	req=
	for a; do
		if [ -n "$req" ]; then while read -r l; do inst "$l"; done <"$a"; req=; continue; fi
		case $a in
		-U) up=1 ;;
		--force-reinstall) force=1 ;;
		-r) req=1 ;;
		-*) ;;
		*) inst "$a" ;;
		esac
	done ;;
uninstall)
	for a; do
		case $a in -*) continue ;; esac
		if [ -f "$d/$a" ]; then rm "$d/$a"; echo "Successfully uninstalled $a"; else echo "WARNING: Skipping $a as it is not installed." >&2; fi
	done ;;
esac
`

// fakePython3 has a pip module only once $FAKE_STATE/pymod exists; its
// "-m pip.__main__" runs the fake pip.
const fakePython3 = `
case $1 in
-c) [ -e "$FAKE_STATE/pymod" ] ;;
-m) shift 2; exec "$(dirname "$0")/pip3" "$@" ;;
*) exit 2 ;;
esac
`

const fakeVirtualenv = `
for a; do v=$a; done
mkdir -p "$v/bin" && : >"$v/bin/activate" && cp "$(dirname "$0")/pip3" "$v/bin/pip"
`

// TestPipWithFakePip drives pip against a stand-in: install, idempotence,
// pinned versions, latest, removal, check mode and a new virtualenv.
func TestPipWithFakePip(t *testing.T) {
	bin, state := modtest.FakeTools(t, map[string]string{"pip3": fakePip, "virtualenv": fakeVirtualenv, "python3": fakePython3})
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	env.Conn = modtest.FakeBinConn{Conn: env.Conn, Dir: bin}
	venv := filepath.Join(t.TempDir(), "venv")
	reqs := filepath.Join(t.TempDir(), "requirements.txt")
	if err := os.WriteFile(reqs, []byte("jinja2==1.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args    tasks.Args
		check   bool
		changed bool
	}{
		{tasks.Args{"name": "requests"}, true, true},
		{tasks.Args{"name": "requests"}, false, true},
		{tasks.Args{"name": "requests"}, false, false},
		{tasks.Args{"name": "requests"}, true, false},
		{tasks.Args{"name": "requests", "version": "1.5"}, true, true},
		{tasks.Args{"name": "requests", "version": "1.5"}, false, true},
		{tasks.Args{"name": "Requests==1.5"}, true, false},
		{tasks.Args{"name": "requests", "state": "latest"}, false, true},
		{tasks.Args{"name": "requests", "state": "latest"}, false, false},
		{tasks.Args{"name": "requests", "state": "absent"}, true, true},
		{tasks.Args{"name": "requests", "state": "absent"}, false, true},
		{tasks.Args{"name": "requests", "state": "absent"}, false, false},
		{tasks.Args{"name": []any{"flask"}, "virtualenv": venv}, false, true},
		{tasks.Args{"name": []any{"flask"}, "virtualenv": venv}, false, false},
		// A range the installed 1.0 meets, given as a string that the list
		// type cuts at its comma: one requirement again, as in Ansible.
		{tasks.Args{"name": "django>=1.0,<3"}, true, true},
		{tasks.Args{"name": "django>=1.0,<3"}, false, true},
		{tasks.Args{"name": "django>=1.0,<3"}, true, false},
		{tasks.Args{"name": "django>=1.0,<3"}, false, false},
		{tasks.Args{"name": "django", "version": ">=1.0"}, true, false},
		{tasks.Args{"name": "django", "version": ">=2.0"}, true, true},
		// A forced reinstall changes nothing pip lists, yet pip installed:
		// changed, as in Ansible; check mode never calls it changed.
		{tasks.Args{"name": "flask", "state": "forcereinstall"}, true, false},
		{tasks.Args{"name": "flask", "state": "forcereinstall"}, false, true},
		// A requirements file: changed when pip's list changed.
		{tasks.Args{"requirements": reqs}, true, true},
		{tasks.Args{"requirements": reqs}, false, true},
		{tasks.Args{"requirements": reqs}, false, false},
	}
	for i, s := range steps {
		env.Check = s.check
		res := modtest.RunMod(t, env, "pip", s.args)
		if res.Failed || res.Changed != s.changed {
			t.Errorf("step %d %v check=%v: changed=%v failed=%v msg=%q", i, s.args, s.check, res.Changed, res.Failed, res.Msg)
		}
	}
	res := modtest.RunMod(t, env, "pip", tasks.Args{"name": "six", "extra_args": "--no-deps"})
	if want := []any{filepath.Join(bin, "pip3"), "install", "--no-deps", "six"}; !reflect.DeepEqual(res.Data["cmd"], want) || res.Data["state"] != "present" {
		t.Errorf("cmd %v", res.Data)
	}
	if !strings.Contains(modtest.FakeLog(t, state), "pip3 install django<3,>=1.0\n") {
		t.Errorf("the range was not one requirement:\n%s", modtest.FakeLog(t, state))
	}
	if !strings.Contains(modtest.FakeLog(t, state), venv+"/bin/pip install flask") {
		t.Errorf("the virtualenv's pip was not used:\n%s", modtest.FakeLog(t, state))
	}
	if _, err := os.Stat(filepath.Join(venv, "bin", "activate")); err != nil {
		t.Error(err)
	}
	res = modtest.RunMod(t, env, "pip", tasks.Args{"name": "flask", "virtualenv": "venv", "chdir": filepath.Dir(venv)})
	if res.Failed || res.Changed || res.Data["virtualenv"] != venv {
		t.Errorf("a virtualenv relative to chdir: %+v", res)
	}
	// Check mode answers for a virtualenv still to be made in a chdir
	// still to be made, as Ansible does; a real run fails there.
	gone := filepath.Join(t.TempDir(), "app")
	env.Check = true
	res = modtest.RunMod(t, env, "pip", tasks.Args{"requirements": "r.txt", "virtualenv": gone, "chdir": gone})
	env.Check = false
	if res.Failed || !res.Changed {
		t.Errorf("check mode in a missing chdir: %+v", res)
	}
	res = modtest.RunMod(t, env, "pip", tasks.Args{"requirements": "r.txt", "virtualenv": gone, "chdir": gone})
	if !res.Failed || res.Msg != "Provided cwd is not a valid directory: "+gone {
		t.Errorf("a missing chdir: %+v", res)
	}
	res = modtest.RunMod(t, env, "pip", tasks.Args{"name": "<2"})
	if !res.Failed || res.Msg != "\n:stderr: ERROR: Invalid requirement: '<2'\n" || res.Data["cmd"] == nil {
		t.Errorf("a failed pip: %+v", res)
	}
	// virtualenv_python with venv fails only when the venv is to be made.
	res = modtest.RunMod(t, env, "pip", tasks.Args{"name": "a", "virtualenv": venv, "virtualenv_command": "python3 -m venv", "virtualenv_python": "python3"})
	if res.Failed {
		t.Errorf("venv with virtualenv_python, venv there: %+v", res)
	}
	res = modtest.RunMod(t, env, "pip", tasks.Args{"name": "a", "virtualenv": gone, "virtualenv_command": "python3 -m venv", "virtualenv_python": "python3"})
	if !res.Failed || !strings.Contains(res.Msg, "virtualenv_python should not be used") {
		t.Errorf("venv with virtualenv_python: %+v", res)
	}
	// Where python3 has pip, pip runs as its module, as Ansible runs its
	// interpreter's.
	if err := os.WriteFile(filepath.Join(state, "pymod"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res = modtest.RunMod(t, env, "pip", tasks.Args{"name": "six"})
	if want := []any{filepath.Join(bin, "python3"), "-m", "pip.__main__", "install", "six"}; res.Failed || !reflect.DeepEqual(res.Data["cmd"], want) {
		t.Errorf("python3's pip: %+v", res)
	}
	res = modtest.RunMod(t, env, "pip", tasks.Args{"name": "a", "state": "latest", "version": "1"})
	if !res.Failed || res.Msg != "version is incompatible with state=latest" {
		t.Errorf("latest+version: %+v", res)
	}
}
