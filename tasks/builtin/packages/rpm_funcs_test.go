package packages

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dnfTables is what two dnf calls (an install, then an upgrade) print
// with --downloadonly: headers, a wrapped long name, dependencies, an
// upgrade, packages skipped, and lines that are no table.
const dnfTables = `Last metadata expiration check: 0:00:02 ago on Sat Nov 28 01:43:25 2026.
Dependencies resolved.
================================================================================
 Package              Architecture    Version        Repository            Size
================================================================================
Installing:
 tender-app           noarch          1.0-1          tender-main          6.3 k
 a-package-name-longer-than-its-column
                      x86_64          1:2.0-3.el9    tender-main          1.2 M
Installing dependencies:
 tender-base          noarch          1.0-1          tender-main          6.3 k
Skipping packages with broken dependencies:
 tender-broken        noarch          1.0-1          tender-case          6.3 k

Transaction Summary
================================================================================
Install  3 Packages

DNF will only download packages for the transaction.
Downloading Packages:
Complete!
Dependencies resolved.
================================================================================
 Package              Architecture    Version        Repository            Size
================================================================================
Upgrading:
 tender-hello         noarch          2.0-1          tender-main          6.3 k
Removing dependent packages:
 tender-old           noarch          1.0-1          @tender-main          37

Transaction Summary
================================================================================
Upgrade  1 Package
`

// TestDnfTable: the transactions parsed from dnf's tables are what
// download_only reports.
func TestDnfTable(t *testing.T) {
	f := filepath.Join(t.TempDir(), "out")
	os.WriteFile(f, []byte(dnfTables), 0o644)
	out, err := exec.Command("sh", "-c", rpmFuncs+"\n_t_table \"$1\"", "sh", f).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "installed=tender-app-1.0-1.noarch\ninstalled=a-package-name-longer-than-its-column-1:2.0-3.el9.x86_64\n" +
		"installed=tender-base-1.0-1.noarch\ninstalled=tender-hello-2.0-1.noarch\nold=tender-hello\nremoved=tender-old-1.0-1.noarch\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestDnfNVR: a spec is a name-version-release as Ansible's dnf parses
// one, or not (then versions are not compared).
func TestDnfNVR(t *testing.T) {
	for spec, want := range map[string]string{
		"tender-hello-1.0-1":        "tender-hello 0 1.0 1",
		"tender-hello-1.0-1.noarch": "tender-hello 0 1.0 1",
		"foo-2:1.5-3.el9.x86_64":    "foo 2 1.5 3.el9",
		"1:foo-1.0-1":               "foo 1 1.0 1",
		"foo-bar-1.0-1.el9":         "foo-bar 0 1.0 1.el9",
		"tender-hello-2.0":          "",
		"tender-hello":              "",
		"foo-v1.0-1":                "",
		"foo-1.0-.x":                "",
		"agent-2.0-1.noarch.rpm":    "agent 0 2.0 1",
	} {
		out, _ := exec.Command("sh", "-c", rpmFuncs+"\n_t_nvr \"$1\" && echo \"$_n $_e $_v $_r\"", "sh", spec).Output()
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("%s: %q, want %q", spec, got, want)
		}
	}
}
