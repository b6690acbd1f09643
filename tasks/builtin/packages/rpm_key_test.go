package packages

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// rpmKeyFake returns an Env whose rpm_key finds this machine's gpg (with
// a private home) and a fake rpm that keeps the imported keys in
// $FAKE_STATE/db, one file per key named by its short id, and logs
// --import and --erase.
func rpmKeyFake(t *testing.T) (*tasks.Env, string) {
	t.Helper()
	gpg, err := exec.LookPath("gpg")
	if err != nil {
		t.Skip("no gpg on this machine")
	}
	bin, state := modtest.FakeTools(t, map[string]string{
		"gpg": `mkdir -p -m 700 "$FAKE_STATE/gnupg"; exec ` + shared.Q(gpg) + ` --homedir "$FAKE_STATE/gnupg" "$@"`,
		"rpm": `mkdir -p "$FAKE_STATE/db"
case "$1 $2" in
"-q gpg-pubkey")
	ls "$FAKE_STATE/db" | grep -q . || { echo "package gpg-pubkey is not installed"; exit 1; }
	if [ "$3" = --qf ]; then cat "$FAKE_STATE/db"/*; fi ;;
"--import "*)
	echo "rpm --import" >>"$FAKE_STATE/log"
	id=$(gpg --with-colons --fixed-list-mode "$2" 2>/dev/null | awk -F: '/^pub:/ { print tolower(substr($5, 9)); exit }')
	[ -n "$id" ] || { echo "error: $2: import read failed(2)." >&2; exit 1; }
	cp "$2" "$FAKE_STATE/db/$id" ;;
"--erase --allmatches")
	echo "rpm --erase $3" >>"$FAKE_STATE/log"
	f="$FAKE_STATE/db/${3#gpg-pubkey-}"
	[ -f "$f" ] || { echo "error: package $3 is not installed" >&2; exit 1; }
	rm "$f" ;;
*) exit 2 ;;
esac`,
	})
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = modtest.FakeBinConn{Conn: cc.Conn, Dir: bin}
	return env, state
}

// TestRpmKeyLocal imports and removes the test keys of testdata/rpm_key
// with this machine's gpg and a fake rpm database: by path, by URL (a
// local web server, dialed through the connection), by key id, check
// mode, fingerprints, a subkey's id (Ansible erases by the subkey's
// short id, which rpm does not know), and the messages of the failures.
func TestRpmKeyLocal(t *testing.T) {
	ctx := context.Background()
	env, state := rpmKeyFake(t)
	key1, _ := filepath.Abs("../testdata/rpm_key/key1.asc")
	key2, _ := filepath.Abs("../testdata/rpm_key/key2.asc")
	srv := httptest.NewServer(http.FileServer(http.Dir("../testdata/rpm_key")))
	defer srv.Close()
	m := rpmKeyModule{}
	steps := []struct {
		args    tasks.Args
		check   bool
		changed bool
		msg     string
	}{
		{tasks.Args{"key": key1}, true, true, ""},
		{tasks.Args{"key": key1}, false, true, ""},
		{tasks.Args{"key": key1}, false, false, ""},
		{tasks.Args{"key": "0x" + "b27f3abd9cbe5d6b"}, false, false, ""},
		{tasks.Args{"key": key2, "fingerprint": "E395E0930F8316D553EF4AD4B27F3ABD9CBE5D6B"}, false, false,
			"The specified fingerprint, 'E395E0930F8316D553EF4AD4B27F3ABD9CBE5D6B', does not match the key fingerprint 'C397286E5C6BE78848D95D54A50A6B7B9FD4D8BC'"},
		{tasks.Args{"key": srv.URL + "/key2.asc", "fingerprint": "c397 286e5c6be78848d95d54a50a6b7b9fd4d8bc"}, false, true, ""},
		{tasks.Args{"key": srv.URL + "/key2.asc"}, false, false, ""},
		{tasks.Args{"key": "53EED96B29E404AB", "state": "absent"}, false, false, "error: package gpg-pubkey-29e404ab is not installed\n"},
		{tasks.Args{"key": "A50A6B7B9FD4D8BC", "state": "absent"}, true, true, ""},
		{tasks.Args{"key": "A50A6B7B9FD4D8BC", "state": "absent"}, false, true, ""},
		{tasks.Args{"key": key1, "state": "absent"}, false, true, ""},
		{tasks.Args{"key": key1, "state": "absent"}, false, false, ""},
		{tasks.Args{"key": "DEADBEEF"}, false, false, "When importing a key, a valid file must be given"},
		{tasks.Args{"key": "/no/such/key.asc"}, false, false, "Not a valid key /no/such/key.asc"},
		{tasks.Args{"key": srv.URL + "/missing.asc"}, false, false,
			"failed to fetch key at " + srv.URL + "/missing.asc , error was: HTTP Error 404: Not Found"},
		{tasks.Args{"key": srv.URL + "/ansible.json"}, false, false, "Not a public key: " + srv.URL + "/ansible.json"},
		{tasks.Args{"key": "ftp://example.invalid/k.asc"}, false, false,
			"failed to fetch key at ftp://example.invalid/k.asc , error was: tender fetches keys over http and https only"},
	}
	for i, s := range steps {
		env.Check = s.check
		res, err := m.Run(ctx, env, s.args)
		if err != nil {
			t.Fatalf("step %d %v: %v", i, s.args, err)
		}
		if res.Changed != s.changed || res.Failed != (s.msg != "") || res.Msg != s.msg {
			t.Errorf("step %d %v: changed %v failed %v %q", i, s.args, res.Changed, res.Failed, res.Msg)
		}
	}
	want := "rpm --import\nrpm --import\nrpm --erase gpg-pubkey-29e404ab\nrpm --erase gpg-pubkey-9fd4d8bc\nrpm --erase gpg-pubkey-9cbe5d6b\n"
	if log := modtest.FakeLog(t, state); log != want {
		t.Errorf("rpm ran:\n%s\nwant:\n%s", log, want)
	}
	if left, _ := os.ReadDir(filepath.Join(state, "db")); len(left) != 0 {
		t.Errorf("keys left: %v", left)
	}
	if _, err := m.Run(ctx, env, tasks.Args{"key": key1, "state": "gone"}); err == nil || !strings.Contains(err.Error(), "value of state must be one of") {
		t.Errorf("bad state: %v", err)
	}
}
