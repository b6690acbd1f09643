//go:build e2e

package system

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestFleetVM boots the fleet's virtual machine (modtest.InitVM), the
// host for what a container cannot give (device-mapper, block devices),
// and checks through tender's ssh connection that it has them: an LVM
// volume group on its first empty disk, a logical volume in it with a
// file system, grown while mounted.
func TestFleetVM(t *testing.T) {
	env := modtest.InitVM(t, "", "")
	r := modtest.RunMod(t, env, "shell", tasks.Args{"_raw_params": "set -e; pvcreate -q /dev/vdb; vgcreate -q vgt /dev/vdb; " +
		"lvcreate -q -n lvt -L 64M vgt; mkfs.ext4 -q /dev/vgt/lvt; mkdir -p /mnt/t; mount /dev/vgt/lvt /mnt/t; " +
		"lvextend -q -r -L 96M vgt/lvt >/dev/null 2>&1; lvs --noheadings -o lv_name,lv_size vgt; df -k --output=size /mnt/t | tail -n1"})
	out, _ := r.Data["stdout"].(string)
	if r.Failed || !strings.Contains(out, "lvt") || !strings.Contains(out, "96.00m") {
		t.Fatalf("LVM on the fleet VM: failed %v, stdout %q, msg %q, stderr %v", r.Failed, out, r.Msg, r.Data["stderr"])
	}
	if f := strings.Fields(out); len(f) < 3 || f[len(f)-1] < "80000" {
		t.Errorf("the file system did not grow with its volume: %q", out)
	}
}
