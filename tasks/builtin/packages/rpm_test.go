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

// fakeRPM answers rpm -q, -qa and -qp from $FAKE_STATE/inst/<name> (the
// installed version) and from a local "rpm" file holding "name version";
// rpm -qa for requirements and provisions from $FAKE_STATE/requires/<name>
// (the names it needs, one per line; each package provides its name).
const fakeRPM = `
case "$*" in *-qa*req=*)
	for f in "$FAKE_STATE"/inst/*; do
		[ -f "$f" ] || continue
		n=${f##*/}
		printf 'prov=%s\t%s\n' "$n" "$n"
		[ -f "$FAKE_STATE/requires/$n" ] && while read -r d; do printf 'req=%s\t%s\n' "$n" "$d"; done <"$FAKE_STATE/requires/$n"
	done
	exit 0 ;;
esac
qp= qa= fmt=
while [ $# -gt 0 ]; do
	case $1 in -qp) qp=1 ;; -qa) qa=1 ;; -q) ;; --qf) shift; fmt=$1 ;; --) ;; *) arg=$1 ;; esac
	shift
done
if [ -n "$qa" ]; then
	for f in "$FAKE_STATE"/inst/*; do [ -f "$f" ] && echo "${f##*/}-$(cat "$f")"; done
	exit 0
fi
if [ -n "$qp" ]; then
	read -r n v <"$arg" || exit 1
	if [ "$fmt" = '%{NAME}' ]; then printf %s "$n"; else echo "$n-$v"; fi
	exit 0
fi
[ -f "$FAKE_STATE/inst/$arg" ] || { echo "package $arg is not installed"; exit 1; }
echo "$arg-$(cat "$FAKE_STATE/inst/$arg")"
`

// fakeDNF keeps the repository's versions in $FAKE_STATE/repo/<name> and
// logs every call; installing a package installs what
// $FAKE_STATE/requires/<name> names, removing one removes the installed
// packages that require it.
const fakeDNF = `
echo "$*" >>"$FAKE_STATE/log"
cmd=
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	-*) ;;
	*) if [ -z "$cmd" ]; then cmd=$1; elif [ "$cmd" = list ]; then :; else break; fi ;;
	esac
	shift
done
mkdir -p "$FAKE_STATE/inst"
# check-update and upgrade without names: every installed package.
case $cmd in check-update|upgrade*) [ $# -gt 0 ] || set -- $(ls "$FAKE_STATE/inst") ;; esac
case $cmd in
makecache|autoremove) exit 0 ;;
list)
	found=
	for p; do [ -f "$FAKE_STATE/repo/$p" ] && found=1 && echo "$p.noarch $(cat "$FAKE_STATE/repo/$p") repo"; done
	[ -n "$found" ] ;;
check-update)
	rc=0
	for p; do cmp -s "$FAKE_STATE/repo/$p" "$FAKE_STATE/inst/$p" || { rc=100; echo "$p.noarch $(cat "$FAKE_STATE/repo/$p") repo"; }; done
	exit $rc ;;
install|upgrade|upgrade-minimal)
	for p; do
		case $p in
		*.rpm) read -r n v <"$p"; echo "$v" >"$FAKE_STATE/inst/$n" ;;
		*) cp "$FAKE_STATE/repo/$p" "$FAKE_STATE/inst/$p"
			for d in $(cat "$FAKE_STATE/requires/$p" 2>/dev/null); do
				[ -f "$FAKE_STATE/inst/$d" ] || cp "$FAKE_STATE/repo/$d" "$FAKE_STATE/inst/$d"
			done ;;
		esac
		echo "Installed $p"
	done ;;
remove)
	for p; do
		rm -f "$FAKE_STATE/inst/$p"
		for f in "$FAKE_STATE"/inst/*; do
			[ -f "$f" ] && grep -qx "$p" "$FAKE_STATE/requires/${f##*/}" 2>/dev/null && rm -f "$f"
		done
	done
	exit 0 ;;
*) exit 2 ;;
esac
`

// TestDnfWithFakeTools runs dnf and yum against stand-ins for rpm and dnf:
// install, idempotence, upgrade by latest, local rpm files, removal,
// check mode, missing packages and the options passed on.
func TestDnfWithFakeTools(t *testing.T) {
	bin, state := modtest.FakeTools(t, map[string]string{"rpm": fakeRPM, "dnf": fakeDNF, "yum": fakeDNF})
	for _, d := range []string{"repo", "inst"} {
		os.MkdirAll(filepath.Join(state, d), 0o755)
	}
	setRepo := func(name, ver string) { os.WriteFile(filepath.Join(state, "repo", name), []byte(ver+"\n"), 0o644) }
	setRepo("tree", "1.8-1.x86_64")
	setRepo("nginx", "1.20-1.x86_64")
	local := filepath.Join(t.TempDir(), "agent-2.0.rpm")
	os.WriteFile(local, []byte("agent 2.0-1.noarch\n"), 0o644)
	env, _ := modtest.TestEnv(t, t.TempDir(), map[string]any{"ansible_pkg_mgr": "dnf"})
	env.Conn = modtest.FakeBinConn{Conn: env.Conn, Dir: bin}
	steps := []struct {
		module  string
		args    tasks.Args
		check   bool
		changed bool
		failed  bool
		results []any
	}{
		{"dnf", tasks.Args{"name": []any{"tree", "nginx"}}, true, true, false, []any{"Installed: nginx", "Installed: tree"}},
		{"dnf", tasks.Args{"name": []any{"tree", "nginx"}, "enablerepo": "epel", "disable_gpg_check": true}, false, true, false,
			[]any{"Installed: nginx-1.20-1.x86_64", "Installed: tree-1.8-1.x86_64"}},
		{"package", tasks.Args{"name": "tree", "state": "present"}, false, false, false, []any{}},
		{"dnf", tasks.Args{"name": "tree", "state": "latest"}, false, false, false, []any{}},
		{"yum", tasks.Args{"name": local}, false, true, false, []any{"Installed " + local, "Installed: agent-2.0-1.noarch"}},
		{"yum", tasks.Args{"name": local, "state": "installed"}, false, false, false, []any{"Installed " + local}},
		{"dnf", tasks.Args{"name": "nginx", "state": "absent"}, true, true, false, []any{"Removed: nginx-1.20-1.x86_64"}},
		{"dnf", tasks.Args{"name": "nginx", "state": "removed"}, false, true, false, []any{"Removed: nginx-1.20-1.x86_64"}},
		{"dnf", tasks.Args{"name": "nginx", "state": "absent"}, false, false, false, []any{}},
		// Ansible's dnf refuses a name with a space before anything runs.
		{"dnf", tasks.Args{"name": []any{"tree", "no-such; rm -rf /"}}, false, false, true, nil},
		{"dnf", tasks.Args{"name": []any{"tree", "no-such;rm${IFS}-rf${IFS}/"}}, false, false, true, []any{}},
	}
	for i, s := range steps {
		if i == 3 {
			setRepo("tree", "1.9-1.x86_64")
			steps[3].changed, steps[3].results = true, []any{"Installed: tree-1.9-1.x86_64", "Removed: tree-1.8-1.x86_64"}
			s = steps[3]
		}
		env.Check = s.check
		res := modtest.RunMod(t, env, s.module, s.args)
		want := any(s.results)
		if s.results == nil {
			want = nil
		}
		if res.Changed != s.changed || res.Failed != s.failed || !reflect.DeepEqual(res.Data["results"], want) {
			t.Errorf("step %d %v: changed=%v failed=%v msg=%q data=%v", i, s.args, res.Changed, res.Failed, res.Msg, res.Data)
		}
	}
	res := modtest.RunMod(t, env, "dnf", tasks.Args{"name": "absent-pkg"})
	if !res.Failed || res.Msg != "Failed to install some of the specified packages" ||
		!reflect.DeepEqual(res.Data["failures"], []any{"No package absent-pkg available."}) {
		t.Errorf("missing package: %+v", res)
	}
	log := modtest.FakeLog(t, state)
	if !strings.Contains(log, "-y --enablerepo=epel --nogpgcheck --setopt=sslverify=True --setopt=install_weak_deps=True install -- tree nginx\n") {
		t.Errorf("options not passed on:\n%s", log)
	}
	if strings.Count(log, " remove ") != 1 {
		t.Errorf("check mode or idempotence broken, removes:\n%s", log)
	}
}
