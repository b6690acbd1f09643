package system

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// mountModule manages a mount point and its fstab line as ansible.posix's
// mount module does on Linux: present and absent_from_fstab edit the
// fstab only; mounted adds the line and mounts (remounting when the line
// changed); unmounted unmounts; absent removes the line, unmounts and
// removes the directory; remounted remounts; ephemeral mounts with the
// options on mount's command line, leaving the fstab alone. The fstab is
// edited in Go (mount_fstab.go). One round trip reads the host (the
// mount point, /proc/self/mountinfo, the fstab); a second, only when
// something is to change, writes the fstab and runs mount or umount.
type mountModule struct{}

var _ tasks.Module = (*mountModule)(nil)

var mountArgs = &tasks.Spec{
	Module: "mount",
	Params: []tasks.Param{
		{Name: "boot", Kind: tasks.Bool, Default: true},
		{Name: "dump", Default: "0"},
		{Name: "fstab"},
		{Name: "fstype"},
		{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"name"}},
		{Name: "opts"},
		{Name: "passno", Default: "0"},
		{Name: "src", Kind: tasks.Path},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "state", Required: true, Choices: []string{"absent", "absent_from_fstab", "mounted", "present",
			"unmounted", "remounted", "ephemeral"}},
	},
}

// mountReadScript reads the mount point, the mount table and the fstab
// (creating a missing fstab, as the module does before anything else,
// but in check mode, which changes nothing).
//
//go:embed mount_read.sh
var mountReadScript string

// mountApplyScript creates the mount point, writes the fstab and runs
// mount or umount.
//
//go:embed mount_apply.sh
var mountApplyScript string

// mountRemountOpts is the module's refusal to fall back to umount and
// mount after a remount with options failed.
const mountRemountOpts = "Options were specified with remounted, but the remount command failed. " +
	"Failing in order to prevent an unexpected mount result. Try replacing this command with " +
	"a \"state: unmounted\" followed by a \"state: mounted\" using the full desired mount options instead."

// mountEphemeralOther is the ephemeral state's refusal to remount a
// mount point that holds another source.
const mountEphemeralOther = "Ephemeral mount point is already mounted with a different source than the " +
	"specified one. Failing in order to prevent an unwanted unmount or override operation. Try replacing " +
	"this command with a \"state: unmounted\" followed by a \"state: ephemeral\", or use a different destination path."

// mountJob is one mount task: the arguments as the module settles them,
// then what the host told and what is to be done.
type mountJob struct {
	state, boot, fstab    string
	e                     fstabEntry
	hasFstype, backup     bool
	fstabGiven            bool
	warnings              []string
	v                     shared.Verdict
	table                 mountTable
	mounted               bool // a mount point (ismount), before any change
	mountBin, umountBin   string
	backupFile            string
	newText, oldText      string
	write, mkdirs, undo   bool
	action, mountedAbsent string
}

// Run brings the mount point and the fstab to the state asked.
func (mountModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := mountArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if err := mountRequiredIf(a); err != nil {
		return tasks.Result{}, err
	}
	j := &mountJob{state: a.Str("state"), backup: a.Bool("backup"), hasFstype: a.Has("fstype"), fstabGiven: a.Has("fstab")}
	j.e = fstabEntry{src: a.Str("src"), name: a.Str("path"), fstype: a.Str("fstype"), opts: "defaults",
		dump: a.Str("dump"), passno: a.Str("passno"), hasSrc: a.Has("src")}
	if a.Has("opts") {
		j.e.opts = a.Str("opts")
	}
	j.fstab = "/etc/fstab"
	if j.fstabGiven {
		j.fstab = a.Str("fstab")
	}
	if fail, err := j.read(ctx, env, a.Str("path"), a.Str("src")); err != nil || fail != nil {
		if fail != nil {
			return *fail, nil
		}
		return tasks.Result{}, err
	}
	var warn string
	j.e.opts, j.boot, warn = bootOpts(j.e.opts, a.Bool("boot"))
	if warn != "" {
		j.warnings = append(j.warnings, warn)
	}
	if msg := j.readFailure(); msg != "" {
		return shared.Fail(msg), nil
	}
	changed, msg := j.plan(env.Check)
	if msg != "" {
		return shared.Fail(msg), nil
	}
	if j.write || j.mkdirs || j.action != "" {
		if msg, err := j.apply(ctx, env); err != nil || msg != "" {
			if err != nil {
				return tasks.Result{}, err
			}
			return shared.Fail(msg), nil
		}
	}
	return shared.WithWarnings(tasks.Result{Changed: changed, Data: j.data(), Warnings: j.warnings}), nil
}

// Spec is the module's argument specification.
func (mountModule) Spec() *tasks.Spec { return mountArgs }

// mountRequiredIf checks the module's required_if rules: mounted,
// present and ephemeral need src and fstype.
func mountRequiredIf(a tasks.Values) error {
	state := a.Str("state")
	if state != "mounted" && state != "present" && state != "ephemeral" {
		return nil
	}
	var missing []string
	for _, k := range []string{"src", "fstype"} {
		if !a.Has(k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("state is %s but all of the following are missing: %s", state, strings.Join(missing, ", "))
	}
	return nil
}

// hostValue is a path parameter as the host expanded it: the value as
// given when there is nothing to expand.
func hostValue(given, host string) string {
	if shared.ShPath(given) == shared.Q(given) {
		return given
	}
	return host
}

// read runs mountReadScript: the module fails (fail) when the fstab
// cannot be created.
func (j *mountJob) read(ctx context.Context, env *tasks.Env, path, src string) (*tasks.Result, error) {
	edits := j.state == "present" || j.state == "mounted" || j.state == "absent" || j.state == "absent_from_fstab"
	script := shared.SysFuncs + shared.ShFuncs + "p=" + shared.ShPath(path) + "\nsrcw=" + shared.ShPath(src) + "\n" +
		shared.ShAssign([][2]string{{"fstab", j.fstab}, {"mkfstab", shared.BoolFlag(j.state != "ephemeral")}, {"check", shared.BoolFlag(env.Check)},
			{"readfstab", shared.BoolFlag(edits)}, {"listv", shared.BoolFlag(j.state == "ephemeral")}}) +
		"printf 'PATH=%s\\n' \"$PATH\"\n" + mountReadScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return nil, err
	}
	head := shared.BeforeMarker(res.Stdout)
	j.v = shared.ParseVerdict(head)
	if res.ExitCode != 0 || j.v["path"] == "" && path != "" {
		r := shared.Fail(shared.ScriptError(res))
		return &r, nil
	}
	j.e.name = hostValue(path, j.v["path"])
	if j.e.hasSrc {
		j.e.src = hostValue(src, j.v["src"])
	}
	j.mounted = j.v["ismount"] == "1"
	j.mountBin, j.umountBin = j.v["mount_bin"], j.v["umount_bin"]
	if e := j.v["fstab_err"]; e != "" {
		msg := "Failed to open " + j.fstab + " due to permission issue"
		if e != shared.EACCES {
			msg = "Failed to open " + j.fstab + " due to " + shared.OSError(e, j.fstab)
		}
		r := shared.Fail(msg)
		return &r, nil
	}
	if j.v["nomountinfo"] == "1" {
		j.warnings = append(j.warnings, "Cannot open file /proc/self/mountinfo. Bind mounts might be misinterpreted.")
	} else {
		mi, _ := shared.Section(res.Stdout, "mountinfo", "mountv")
		j.table.linux = parseMountinfo(mi)
	}
	mv, _ := shared.Section(res.Stdout, "mountv", "fstab")
	for _, l := range strings.Split(strings.TrimFunc(mv, pySpace), "\n") {
		if l != "" {
			j.table.mountV = append(j.table.mountV, l)
		}
	}
	j.oldText, _ = shared.Section(res.Stdout, "fstab", "")
	return nil, nil
}

// readFailure is why the fstab the task edits could not be read ("" when
// it could): the error Python's open() raised.
func (j *mountJob) readFailure() string {
	if e := j.v["fstab_read"]; e != "" {
		return shared.OSError(e, j.fstab)
	}
	return ""
}

// plan decides, from what the host told, whether the task changes
// anything and what the apply script does; msg is a failure.
func (j *mountJob) plan(check bool) (changed bool, msg string) {
	name := j.e.name
	switch j.state {
	case "present":
		j.newText, changed, _ = setMount(j.oldText, j.e)
		j.write = changed && !check
	case "absent_from_fstab", "absent":
		j.newText, changed = unsetMount(j.oldText, j.e)
		j.write = changed && !check
		if j.state == "absent" && j.write {
			j.action = "absent"
			if j.mounted || j.table.bindMounted(name, nil, nil) {
				j.mountedAbsent = "1"
			}
		}
	case "unmounted":
		if j.mounted || j.table.bindMounted(name, nil, nil) {
			changed = true
			if !check {
				j.action = "umount"
			}
		}
	case "remounted":
		changed = true
		if !check {
			j.action = "remount"
		}
	case "mounted", "ephemeral":
		j.mkdirs = j.v["exists"] != "1" && !check
		if j.state == "mounted" {
			var old string
			j.newText, changed, old = setMount(j.oldText, j.e)
			j.write = changed && !check
			j.undo = true
			j.oldText = old
		}
		src, fstype := j.e.src, j.e.fstype
		if j.mounted || j.table.bindMounted(name, &src, &fstype) {
			if changed && !check {
				j.action = "remount"
			}
			if j.state == "ephemeral" {
				same, empty := j.table.sameSource(j.mounted, src, name)
				switch {
				case empty:
					return false, fmt.Sprintf("Unable to retrieve mount info with command '%s -v'", j.mountBin)
				case !same:
					return false, mountEphemeralOther
				}
				changed = true
				if !check {
					j.action = "remount"
				}
			}
		} else {
			changed = true
			if !check {
				j.action = "mount"
			}
		}
	}
	return changed, ""
}

// argv is the mount command's arguments for the mount (remount: a
// remount) of the task, without the program.
func (j *mountJob) argv(remount bool) []string {
	var out []string
	if remount {
		o := "remount"
		if j.state == "remounted" && j.e.opts != "defaults" {
			o += "," + j.e.opts
		}
		out = append(out, "-o", o)
	}
	if j.state == "ephemeral" {
		out = append(out, "-t", j.e.fstype)
		if j.e.opts != "defaults" {
			out = append(out, "-o", j.e.opts)
		}
		out = append(out, j.e.src)
	} else if j.fstab != "" && j.fstab != "/etc/fstab" {
		out = append(out, "-T", j.fstab)
	}
	return append(out, j.e.name)
}

// apply runs mountApplyScript; msg is the module's failure.
func (j *mountJob) apply(ctx context.Context, env *tasks.Env) (msg string, err error) {
	if (j.action == "mount" || j.action == "remount") && j.mountBin == "" {
		return "Failed to find required executable \"mount\" in paths: " + j.v["PATH"], nil
	}
	if (j.action == "umount" || j.mountedAbsent != "") && j.umountBin == "" {
		return "Failed to find required executable \"umount\" in paths: " + j.v["PATH"], nil
	}
	words := func(argv []string) string {
		q := make([]string, len(argv))
		for i, w := range argv {
			q[i] = shared.Q(w)
		}
		return strings.Join(q, " ")
	}
	funcs := "_m_mount() { _m_do \"$mount_bin\" " + words(j.argv(false)) + "; }\n" +
		"_m_remount() { _m_do \"$mount_bin\" " + words(j.argv(true)) + "; }\n"
	vars := [][2]string{
		{"p", j.e.name}, {"fstab", j.fstab}, {"mkdirs", shared.BoolFlag(j.mkdirs)},
		{"write", shared.BoolFlag(j.write)}, {"new", j.newText}, {"old", j.oldText},
		{"backup", shared.BoolFlag(j.backup)}, {"restore", shared.BoolFlag(j.undo)},
		{"action", j.action}, {"mounted", j.mountedAbsent},
		{"remounted", shared.BoolFlag(j.state == "remounted")},
		{"remount_opts", shared.BoolFlag(j.state == "remounted" && j.e.opts != "defaults")},
		{"mount_bin", j.mountBin}, {"umount_bin", j.umountBin},
	}
	script := shared.SysFuncs + shared.ShAssign(vars) + funcs + mountApplyScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return "", err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	if j.backup && v["backup_file"] != "" && j.state != "absent" && j.state != "absent_from_fstab" {
		j.backupFile = v["backup_file"]
	}
	return mountFailure(res, v, j.e.name, out+errOut), nil
}

// mountFailure is the module's message for the apply script's verdict v
// ("" when it succeeded); output is the last command's stdout and
// stderr.
func mountFailure(res transport.Result, v shared.Verdict, name, output string) string {
	switch v["fail"] {
	case "":
		if res.ExitCode != 0 || v["rc"] == "" {
			return shared.ScriptError(res)
		}
		return ""
	case "mkdir":
		return "Error making dir " + name + ": " + pyOSError(v["err"], v["at"])
	case "rmdir":
		return "Error rmdir " + name + ": " + pyOSError(v["err"], name)
	case "umount":
		return "Error unmounting " + name + ": " + output
	case "mount":
		return "Error mounting " + name + ": " + output
	case "remount":
		return "Error remounting " + name + ": " + output
	case "remount_opts":
		return mountRemountOpts
	}
	return "writing the fstab failed"
}

// pyOSError is Python's text of an OSError with strerror s on path,
// knowing the errors of rmdir shared.Errno does not.
func pyOSError(s, path string) string {
	if shared.Errno(s) == 0 && s == "Directory not empty" {
		return fmt.Sprintf("[Errno 39] %s: %s", s, shared.PyRepr(path))
	}
	return shared.OSError(s, path)
}

// data is the module's result: the settled arguments.
func (j *mountJob) data() map[string]any {
	d := map[string]any{"name": j.e.name, "opts": j.e.opts, "dump": j.e.dump, "passno": j.e.passno,
		"fstab": j.fstab, "boot": j.boot, "backup_file": j.backupFile}
	if j.e.hasSrc {
		d["src"] = j.e.src
	}
	if j.hasFstype {
		d["fstype"] = j.e.fstype
	}
	return d
}
