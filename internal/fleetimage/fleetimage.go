// Package fleetimage lets the e2e tests of any package build the fleet's
// images and local package repositories they start hosts from, so that a
// test binary needs nothing built before it: it runs e2e/fleet's scripts,
// which build what is missing or out of date and lock per image, so that
// test binaries running side by side build each image once.
package fleetimage

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Root is the module's root directory (the one holding go.mod), found
// upwards from the working directory.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}

// Need builds the named images (e2e/fleet/build-images.sh, e.g.
// "tender-e2e/debian") where missing or out of date, and fails tb when it
// cannot.
func Need(tb testing.TB, images ...string) {
	tb.Helper()
	run(tb, "build-images.sh", images...)
}

// NeedVM builds the fleet's virtual machine (e2e/fleet/build-vm.sh, in
// e2e/.fleet/vm) where missing or out of date.
func NeedVM(tb testing.TB) { tb.Helper(); run(tb, "build-vm.sh") }

// NeedApt builds the fleet's local apt repository (e2e/fleet/aptrepo.sh,
// in e2e/.fleet/apt) where missing or out of date.
func NeedApt(tb testing.TB) { tb.Helper(); run(tb, "aptrepo.sh") }

// NeedRPM builds the rh hosts' local rpm repositories
// (e2e/fleet/rpmrepo.sh, in e2e/.fleet/rpm) where missing or out of date.
func NeedRPM(tb testing.TB) { tb.Helper(); run(tb, "rpmrepo.sh") }

func run(tb testing.TB, script string, args ...string) {
	tb.Helper()
	root, err := Root()
	if err != nil {
		tb.Fatal(err)
	}
	c := exec.Command("bash", append([]string{filepath.Join(root, "e2e/fleet", script)}, args...)...)
	if out, err := c.CombinedOutput(); err != nil {
		tb.Fatalf("e2e/fleet/%s %v: %v\n%s", script, args, err, out)
	}
}
