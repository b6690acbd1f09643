package transporttest

import (
	"os"
	"path/filepath"
	"testing"
)

// FakeSudo puts a stand-in `sudo` in a new directory and returns it (to
// prepend to PATH) and the path of its log. The stand-in checks the flags
// transport.Wrap uses, consumes one password line after -S and records it
// in the log, then runs the command as the current user: enough to test
// how become is plumbed without root or a real sudo.
func FakeSudo(t *testing.T) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(dir, "sudo.log")
	script := `#!/bin/sh
echo "args: $*" >> '` + log + `'
case "$1" in
-S) IFS= read -r pw; echo "password: $pw" >> '` + log + `' ;;
-n) ;;
*) echo "unexpected flag $1" >&2; exit 99 ;;
esac
while [ "$1" != "--" ]; do shift; done
shift
exec "$@"
`
	if err := os.WriteFile(filepath.Join(dir, "sudo"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, log
}
