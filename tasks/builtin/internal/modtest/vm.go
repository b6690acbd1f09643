package modtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh"
)

// InitVM boots a fresh copy of the fleet's virtual machine
// (e2e/fleet/run-vm.sh: Debian's kernel with device-mapper, two empty
// disks /dev/vdb and /dev/vdc), as testdata/service_facts/record.sh
// boots it for kind vm, copies dir (when not "") to /srv/testdata on
// it, runs dir/setup there (when not "") and returns an Env on it
// through tender's ssh connection. The VM is stopped at the end.
func InitVM(t *testing.T, dir, setup string) *tasks.Env {
	t.Helper()
	return InitVMBoot(t, dir, setup, "")
}

// InitVMBoot is InitVM with kernelArgs added to the VM kernel's command
// line (security=selinux boots it with SELinux).
func InitVMBoot(t *testing.T, dir, setup, kernelArgs string) *tasks.Env {
	t.Helper()
	fleetimage.NeedVM(t)
	root, err := fleetimage.Root()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	boot := exec.Command("sh", filepath.Join(root, "e2e/fleet/run-vm.sh"), work)
	boot.Env = append(os.Environ(), "TENDER_VM_APPEND="+kernelArgs)
	out, err := boot.CombinedOutput()
	t.Cleanup(func() {
		if b, err := os.ReadFile(filepath.Join(work, "pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
				}
			}
		}
	})
	if err != nil {
		t.Fatalf("booting the fleet VM: %v\n%s", err, out)
	}
	port, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("run-vm.sh printed %q", out)
	}
	d := &ssh.Dialer{HostKeys: ssh.HostKeyInsecure, ConfigFile: "none", NoAgent: true}
	c, err := d.Connect(context.Background(), transport.Target{Name: "vm", Host: "127.0.0.1", Port: port, User: "root",
		KeyFiles: []string{filepath.Join(root, "e2e/.fleet/vm/key")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if dir != "" {
		tar, err := exec.Command("tar", "-C", dir, "-c", ".").Output()
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Run(context.Background(), transport.Cmd{Script: "mkdir -p /srv/testdata && tar -C /srv/testdata -x",
			Stdin: bytes.NewReader(tar)})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("copying %s to the VM: %v %s", dir, err, res.Stderr)
		}
	}
	if setup != "" {
		b, err := os.ReadFile(filepath.Join(dir, setup))
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Run(context.Background(), transport.Cmd{Script: string(b)})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("%s: %v %s %s", setup, err, res.Stdout, res.Stderr)
		}
	}
	env, cc := TestEnv(t, t.TempDir(), nil)
	cc.Conn = c
	return env
}
