package system

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// filesystemModule makes, grows or wipes a file system on a block device
// or a regular file (a disk image) as community.general's filesystem
// module does: blkid tells what the device holds, the fstype's mkfs
// program makes one (always with its force flag, as Ansible passes it),
// its info program and resize tool grow one to the device's size, and
// wipefs --all removes the signatures. One round trip.
type filesystemModule struct{}

var _ tasks.Module = (*filesystemModule)(nil)

var filesystemArgs = &tasks.Spec{
	Module: "filesystem",
	Params: []tasks.Param{
		{Name: "state", Default: "present", Choices: []string{"present", "absent"}},
		{Name: "fstype", Aliases: []string{"type"}, Choices: []string{"btrfs", "ext2", "ext3", "ext4", "ext4dev",
			"f2fs", "lvm", "ocfs2", "reiserfs", "swap", "ufs", "vfat", "xfs"}},
		{Name: "dev", Kind: tasks.Path, Required: true, Aliases: []string{"device"}},
		{Name: "opts"},
		{Name: "force", Kind: tasks.Bool, Default: false},
		{Name: "resizefs", Kind: tasks.Bool, Default: false},
	},
}

// fsKind is what the module knows of one family of file systems: the
// name its messages give it (Ansible's class name), the blkid types that
// count as the same file system, its mkfs program and force flags, and
// the programs that measure and grow it ("" when it cannot be grown).
type fsKind struct {
	class, mkfs, force, info, grow, growFlags string
	same                                      []string
	mountOnly                                 bool
}

// fsKinds maps each fstype choice to its family.
var fsKinds = func() map[string]fsKind {
	ext := func(n string) fsKind {
		return fsKind{class: "Ext" + n, mkfs: "mkfs.ext" + n, force: "-F", info: "tune2fs", grow: "resize2fs"}
	}
	m := map[string]fsKind{
		"ext2": ext("2"), "ext3": ext("3"), "ext4": ext("4"),
		"xfs":      {class: "XFS", mkfs: "mkfs.xfs", force: "-f", info: "xfs_info", grow: "xfs_growfs", mountOnly: true},
		"btrfs":    {class: "Btrfs", mkfs: "mkfs.btrfs", info: "btrfs", grow: "btrfs", growFlags: "filesystem resize max", mountOnly: true},
		"f2fs":     {class: "F2fs", mkfs: "mkfs.f2fs", info: "dump.f2fs", grow: "resize.f2fs"},
		"reiserfs": {class: "Reiserfs", mkfs: "mkfs.reiserfs", force: "-q"},
		"ocfs2":    {class: "Ocfs2", mkfs: "mkfs.ocfs2", force: "-Fx"},
		"vfat":     {class: "VFAT", mkfs: "mkfs.vfat", info: "fatresize", grow: "fatresize", growFlags: "-s max"},
		"lvm":      {class: "LVM", mkfs: "pvcreate", force: "-f", info: "pvs", grow: "pvresize"},
		"swap":     {class: "Swap", mkfs: "mkswap", force: "-f"},
		"ufs":      {class: "UFS", mkfs: "newfs", info: "dumpfs", grow: "growfs", growFlags: "-y"},
	}
	m["ext4dev"] = m["ext4"]
	blkid := map[string]string{"ext4dev": "ext4", "lvm": "LVM2_member"}
	for name, k := range m {
		t := name
		if b, ok := blkid[name]; ok {
			t = b
		}
		if t == "ext4" {
			k.same = []string{"ext4", "ext4dev"}
		} else {
			k.same = []string{t}
		}
		m[name] = k
	}
	return m
}()

// filesystemScript inspects $dev with blkid and makes, grows or wipes its
// file system. It prints dev= and fs= (what blkid found), then done=
// (nodev, none, wiped, same, whole, resizing, grown, created) or fail=
// (nobin, rc, used, nogrow, target, parse, mount) with the failing
// command's output after _t_tail's markers.
//
//go:embed filesystem.sh
var filesystemScript string

// Run brings the device's file system to the state asked.
func (filesystemModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := filesystemArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	state, fstype := a.Str("state"), a.Str("fstype")
	if state == "present" && !a.Has("fstype") {
		return tasks.Result{}, fmt.Errorf("state is present but all of the following are missing: fstype")
	}
	k := fsKinds[fstype]
	script := shared.SysFuncs + "dev=" + shared.ShPath(a.Str("dev")) + "\n" + shared.ShAssign([][2]string{
		{"state", state}, {"cls", k.class}, {"sametypes", strings.Join(k.same, " ")}, {"mkfs", k.mkfs},
		{"forceflags", k.force}, {"grow", k.grow}, {"growflags", k.growFlags},
		{"mponly", shared.BoolFlag(k.mountOnly)}, {"resize", shared.BoolFlag(a.Bool("resizefs"))},
		{"force", shared.BoolFlag(a.Bool("force"))}, {"check", shared.BoolFlag(env.Check)},
	}) + shared.SetArgs(strings.Fields(a.Str("opts"))) + filesystemScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	if v["done"] == "" && v["fail"] == "" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	r := filesystemResult(v, k, state, fstype, out, errOut)
	if v["warnver"] != "" {
		r.Warnings = append([]string{fmt.Sprintf("Unable to identify mkfs.btrfs version (%s, %s)",
			shared.PyRepr(out), shared.PyRepr(errOut))}, r.Warnings...)
	}
	return shared.WithWarnings(r), nil
}

// filesystemResult turns the script's verdict into the module's result,
// with Ansible's messages.
func filesystemResult(v shared.Verdict, k fsKind, state, fstype, out, errOut string) tasks.Result {
	dev := v["dev"]
	data := map[string]any{}
	fail := func(msg string) tasks.Result { return tasks.Result{Failed: true, Msg: msg, Data: data} }
	switch v["fail"] {
	case "nobin":
		return fail(fmt.Sprintf("Failed to find required executable %q in paths: %s", v["bin"], v["paths"]))
	case "rc":
		rc, _ := strconv.Atoi(v["rc"])
		data["rc"], data["cmd"] = rc, shared.PyCleanArgs(strings.Split(strings.TrimSuffix(v["cmd"], "\t"), "\t"))
		data["stdout"], data["stdout_lines"] = out, shared.Lines(out)
		data["stderr"], data["stderr_lines"] = errOut, shared.Lines(errOut)
		return fail(strings.TrimRight(errOut, " \t\r\n\v\f"))
	case "used":
		rc, _ := strconv.Atoi(v["rc"])
		data["rc"], data["err"] = rc, errOut
		return fail(fmt.Sprintf("'%s' is already used as %s, use force=true to overwrite", dev, v["fs"]))
	case "nogrow":
		return fail(fmt.Sprintf("module does not support resizing %s filesystem yet.", fstype))
	case "target":
		return fail("Target device not supported: " + dev)
	case "parse":
		r := fail(fmt.Sprintf("unable to process %s output for %s", k.info, dev))
		r.Warnings = []string{fmt.Sprintf("unable to process %s output '%s'", k.info, shared.PyRepr(out))}
		return r
	case "mount":
		return fail(fmt.Sprintf("%s needs to be mounted for %s operations", dev, k.class))
	}
	switch v["done"] {
	case "nodev":
		msg := fmt.Sprintf("Device %s not found.", dev)
		if state == "present" {
			return fail(msg)
		}
		return tasks.Result{Msg: msg, Data: data}
	case "whole":
		msg := fmt.Sprintf("%s filesystem is using the whole device %s", k.class, dev)
		return tasks.Result{Msg: msg, Data: data}
	case "resizing":
		msg := fmt.Sprintf("resizing filesystem %s on device %s", k.class, dev)
		return tasks.Result{Changed: true, Msg: msg, Data: data}
	case "grown":
		return tasks.Result{Changed: true, Msg: out, Data: data}
	case "wiped", "created":
		return tasks.Result{Changed: true, Data: data}
	}
	return tasks.Result{Data: data}
}

// Spec returns the module's argument specification.
func (filesystemModule) Spec() *tasks.Spec { return filesystemArgs }
