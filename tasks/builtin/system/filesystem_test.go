package system

import (
	"reflect"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestFsKinds checks the families: the blkid types that count as the
// same file system, the force flags and the resize programs.
func TestFsKinds(t *testing.T) {
	for _, c := range []struct {
		fstype, class, mkfs, force, grow string
		same                             []string
	}{
		{"ext4", "Ext4", "mkfs.ext4", "-F", "resize2fs", []string{"ext4", "ext4dev"}},
		{"ext4dev", "Ext4", "mkfs.ext4", "-F", "resize2fs", []string{"ext4", "ext4dev"}},
		{"ext3", "Ext3", "mkfs.ext3", "-F", "resize2fs", []string{"ext3"}},
		{"xfs", "XFS", "mkfs.xfs", "-f", "xfs_growfs", []string{"xfs"}},
		{"vfat", "VFAT", "mkfs.vfat", "", "fatresize", []string{"vfat"}},
		{"lvm", "LVM", "pvcreate", "-f", "pvresize", []string{"LVM2_member"}},
		{"swap", "Swap", "mkswap", "-f", "", []string{"swap"}},
		{"ocfs2", "Ocfs2", "mkfs.ocfs2", "-Fx", "", []string{"ocfs2"}},
	} {
		k, ok := fsKinds[c.fstype]
		if !ok {
			t.Fatalf("%s: no family", c.fstype)
		}
		if k.class != c.class || k.mkfs != c.mkfs || k.force != c.force || k.grow != c.grow || !reflect.DeepEqual(k.same, c.same) {
			t.Errorf("%s: got %+v", c.fstype, k)
		}
	}
	for _, ch := range filesystemArgs.Params[1].Choices {
		if _, ok := fsKinds[ch]; !ok {
			t.Errorf("choice %s has no family", ch)
		}
	}
}

// TestFilesystemResult checks the messages made from the script's verdicts.
func TestFilesystemResult(t *testing.T) {
	ext4, xfs := fsKinds["ext4"], fsKinds["xfs"]
	for _, c := range []struct {
		name          string
		v             shared.Verdict
		k             fsKind
		state, fstype string
		out, errOut   string
		failed, chg   bool
		msg           string
	}{
		{"nodev present", shared.Verdict{"dev": "/x", "done": "nodev"}, ext4, "present", "ext4", "", "", true, false, "Device /x not found."},
		{"nodev absent", shared.Verdict{"dev": "/x", "done": "nodev"}, ext4, "absent", "", "", "", false, false, "Device /x not found."},
		{"nobin", shared.Verdict{"fail": "nobin", "bin": "mkfs.btrfs", "paths": "/bin:/sbin"}, ext4, "present", "btrfs", "", "", true, false,
			`Failed to find required executable "mkfs.btrfs" in paths: /bin:/sbin`},
		{"used", shared.Verdict{"dev": "/x", "fail": "used", "fs": "ext4", "rc": "0"}, xfs, "present", "xfs", "", "", true, false,
			"'/x' is already used as ext4, use force=true to overwrite"},
		{"nogrow", shared.Verdict{"fail": "nogrow"}, fsKinds["swap"], "present", "swap", "", "", true, false, "module does not support resizing swap filesystem yet."},
		{"mount", shared.Verdict{"dev": "/x", "fail": "mount"}, xfs, "present", "xfs", "", "", true, false, "/x needs to be mounted for XFS operations"},
		{"whole", shared.Verdict{"dev": "/x", "done": "whole"}, ext4, "present", "ext4dev", "", "", false, false, "Ext4 filesystem is using the whole device /x"},
		{"resizing", shared.Verdict{"dev": "/x", "done": "resizing"}, xfs, "present", "xfs", "", "", false, true, "resizing filesystem XFS on device /x"},
		{"grown", shared.Verdict{"dev": "/x", "done": "grown"}, ext4, "present", "ext4", "done\n", "", false, true, "done\n"},
		{"rc", shared.Verdict{"fail": "rc", "rc": "1", "cmd": "/sbin/mkfs.ext4\t-F\t/x\t"}, ext4, "present", "ext4", "", "bad\n", true, false, "bad"},
		{"created", shared.Verdict{"done": "created"}, ext4, "present", "ext4", "", "", false, true, ""},
		{"same", shared.Verdict{"done": "same"}, ext4, "present", "ext4", "", "", false, false, ""},
	} {
		r := filesystemResult(c.v, c.k, c.state, c.fstype, c.out, c.errOut)
		if r.Failed != c.failed || r.Changed != c.chg || r.Msg != c.msg {
			t.Errorf("%s: got failed=%v changed=%v msg=%q", c.name, r.Failed, r.Changed, r.Msg)
		}
		if c.name == "rc" && r.Data["cmd"] != "/sbin/mkfs.ext4 -F /x" {
			t.Errorf("rc: cmd %q", r.Data["cmd"])
		}
	}
}
