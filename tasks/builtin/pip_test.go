package builtin

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// fakePip keeps installed packages as $FAKE_STATE/pkgs/<name> holding the
// version; every package's newest version is 2.0.
const fakePip = `
d=$FAKE_STATE/pkgs; mkdir -p "$d"
echo "$0 $*" >>"$FAKE_STATE/log"
cmd=$1; shift
case $cmd in
freeze) for f in "$d"/*; do [ -e "$f" ] && echo "$(basename "$f")==$(cat "$f")"; done; exit 0 ;;
install)
	up=
	for a; do
		case $a in
		-U) up=1 ;;
		-*) ;;
		*) n=${a%%==*}; v=1.0; case $a in *==*) v=${a#*==} ;; esac
			[ -n "$up" ] && v=2.0
			[ -f "$d/$n" ] && [ "$(cat "$d/$n")" = "$v" ] && { echo "Requirement already satisfied: $n"; continue; }
			[ -f "$d/$n" ] && [ -z "$up" ] && case $a in *==*) ;; *) echo "Requirement already satisfied: $n"; continue ;; esac
			echo "$v" >"$d/$n"; echo "Successfully installed $n-$v" ;;
		esac
	done ;;
uninstall)
	for a; do
		case $a in -*) continue ;; esac
		if [ -f "$d/$a" ]; then rm "$d/$a"; echo "Successfully uninstalled $a"; else echo "WARNING: Skipping $a as it is not installed." >&2; fi
	done ;;
esac
`

const fakeVirtualenv = `
for a; do v=$a; done
mkdir -p "$v/bin" && : >"$v/bin/activate" && cp "$(dirname "$0")/pip3" "$v/bin/pip"
`

// TestPipWithFakePip drives pip against a stand-in: install, idempotence,
// pinned versions, latest, removal, check mode and a new virtualenv.
func TestPipWithFakePip(t *testing.T) {
	bin, state := fakeTools(t, map[string]string{"pip3": fakePip, "virtualenv": fakeVirtualenv})
	env, _ := testEnv(t, t.TempDir(), nil)
	env.Conn = fakeBinConn{env.Conn, bin}
	venv := filepath.Join(t.TempDir(), "venv")
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
	}
	for i, s := range steps {
		env.Check = s.check
		res := runMod(t, env, "pip", s.args)
		if res.Failed || res.Changed != s.changed {
			t.Errorf("step %d %v check=%v: changed=%v failed=%v msg=%q", i, s.args, s.check, res.Changed, res.Failed, res.Msg)
		}
	}
	res := runMod(t, env, "pip", tasks.Args{"name": "six", "extra_args": "--no-deps"})
	if want := []any{filepath.Join(bin, "pip3"), "install", "--no-deps", "six"}; !reflect.DeepEqual(res.Data["cmd"], want) || res.Data["state"] != "present" {
		t.Errorf("cmd %v", res.Data)
	}
	if !strings.Contains(fakeLog(t, state), venv+"/bin/pip install flask") {
		t.Errorf("the virtualenv's pip was not used:\n%s", fakeLog(t, state))
	}
	if _, err := os.Stat(filepath.Join(venv, "bin", "activate")); err != nil {
		t.Error(err)
	}
	res = runMod(t, env, "pip", tasks.Args{"name": "a", "state": "latest", "version": "1"})
	if !res.Failed || res.Msg != "version is incompatible with state=latest" {
		t.Errorf("latest+version: %+v", res)
	}
}
