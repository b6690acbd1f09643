package files

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// synchronizeModule copies files between the controller and the host
// with rsync, as ansible.posix's synchronize action and module (1.5.4)
// do: rsync runs on the controller (mode push sends src there to dest on
// the host, pull brings src from the host to dest), with the module's
// command line (archive and its sub-flags, delete, checksum, ...,
// --dry-run in check mode), and changed comes from rsync's itemized
// --out-format lines.
//
// Unlike Ansible, the controller's rsync does not log in to the host
// with its own ssh: its remote shell (--rsh) is a small sh bridge that
// hands the remote rsync command to tender, which runs it over the
// task's connection (synchronize_bridge.go). So the one SSH connection,
// its host key checking, its authentication (no password on a command
// line) and become (the remote rsync runs as the become user) are
// tender's. A delegated task runs rsync on the delegate with ssh to the
// host, as Ansible does (synchronize_delegate.go).
type synchronizeModule struct{}

var _ tasks.Module = (*synchronizeModule)(nil)

var synchronizeArgs = &tasks.Spec{
	Module: "synchronize",
	Params: []tasks.Param{
		{Name: "src", Required: true},
		{Name: "dest", Required: true},
		{Name: "dest_port", Kind: tasks.Int},
		{Name: "delete", Kind: tasks.Bool, Default: false},
		{Name: "private_key", Kind: tasks.Path},
		{Name: "rsync_path"},
		{Name: "_local_rsync_path", Kind: tasks.Path, Default: "rsync"},
		{Name: "archive", Kind: tasks.Bool, Default: true},
		{Name: "checksum", Kind: tasks.Bool, Default: false},
		{Name: "compress", Kind: tasks.Bool, Default: true},
		{Name: "existing_only", Kind: tasks.Bool, Default: false},
		{Name: "dirs", Kind: tasks.Bool, Default: false},
		{Name: "recursive", Kind: tasks.Bool},
		{Name: "links", Kind: tasks.Bool},
		{Name: "copy_links", Kind: tasks.Bool, Default: false},
		{Name: "perms", Kind: tasks.Bool},
		{Name: "times", Kind: tasks.Bool},
		{Name: "owner", Kind: tasks.Bool},
		{Name: "group", Kind: tasks.Bool},
		{Name: "set_remote_user", Kind: tasks.Bool, Default: true},
		{Name: "rsync_timeout", Kind: tasks.Int, Default: 0},
		{Name: "rsync_opts", Kind: tasks.List, Default: []any{}},
		{Name: "ssh_args"},
		{Name: "ssh_connection_multiplexing", Kind: tasks.Bool, Default: false},
		{Name: "partial", Kind: tasks.Bool, Default: false},
		{Name: "verify_host", Kind: tasks.Bool, Default: false},
		{Name: "delay_updates", Kind: tasks.Bool, Default: true},
		{Name: "mode", Default: "push", Choices: []string{"pull", "push"}},
		{Name: "link_dest", Kind: tasks.List},
		{Name: "use_ssh_args", Kind: tasks.Bool, Default: false},
	},
	Refused: map[string]string{
		"_local_rsync_password": "the action's own: tender's connection logs in to the host, so no password is handed to rsync (or sshpass)",
		"_substitute_controller": "the action's own, for a task delegated away from a host named localhost; " +
			"tender's rsync reaches the host over tender's connection",
	},
}

// Spec returns synchronize's arguments.
func (synchronizeModule) Spec() *tasks.Spec { return synchronizeArgs }

// syncPlan is what the action decided for one task: where rsync runs,
// and the two paths as rsync is given them.
type syncPlan struct {
	src, dest string
	// bridge: rsync runs on the controller and reaches the host over
	// the task's connection; otherwise it runs through the task's
	// connection (a delegate, or the host itself), with ssh.
	bridge bool
	// ssh is, for a delegated task, how the delegate's ssh logs in to
	// the host.
	ssh syncSSH
	// rsyncPath is --rsync-path (rsync_path, or sudo rsync for become
	// on a delegated task).
	rsyncPath string
}

// Run synchronizes src and dest: the action's checks and path
// formatting, the module's arguments and command line, then one rsync.
func (synchronizeModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	if args["src"] == nil || args["dest"] == nil {
		return shared.Fail("synchronize requires both src and dest parameters are set"), nil
	}
	a, err := synchronizeArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	plan, err := syncPlanFor(env, a)
	if err != nil {
		return tasks.Result{}, err
	}
	if strings.HasPrefix(plan.src, "rsync://") && strings.HasPrefix(plan.dest, "rsync://") {
		r := shared.Fail("either src or dest must be a localhost")
		r.RC, r.Data["rc"] = 1, 1
		return r, nil
	}
	if plan.bridge {
		if msg := syncBridgeRefusal(env, a); msg != "" {
			return shared.Fail(msg), nil
		}
		if err := env.Sandbox.CheckLocal("synchronize runs rsync on the controller"); err != nil {
			return tasks.Result{}, err
		}
		return syncOnController(ctx, env, a, plan)
	}
	return syncOnDelegate(ctx, env, a, plan)
}

// syncPlanFor decides, as the action does, where rsync runs and formats
// src and dest: the controller's side is a path (a relative one is
// looked up in the files directories), the host's is [user@]host:path.
func syncPlanFor(env *tasks.Env, a tasks.Values) (syncPlan, error) {
	host := syncVar(env, "ansible_host")
	if host == "" {
		host = shared.OrDefault(syncVar(env, "inventory_hostname"), env.Host)
	}
	user := ""
	if a.Bool("set_remote_user") {
		user = syncVar(env, "ansible_user")
	}
	pull := a.Str("mode") == "pull"
	plan := syncPlan{bridge: !syncDelegated(env), rsyncPath: a.Str("rsync_path")}
	local, remote := a.Str("src"), a.Str("dest")
	if pull {
		local, remote = remote, local
	}
	local = syncOrigin(env, local)
	if plan.bridge {
		remote = syncRemote(host, remote, user)
	} else {
		d, err := syncDelegatePlan(env, a, host, user)
		if err != nil {
			return plan, err
		}
		plan.ssh = d.ssh
		if d.self {
			remote = syncOrigin(env, remote)
		} else {
			remote = syncRemote(host, remote, d.user)
			if env.Become && plan.rsyncPath == "" {
				plan.rsyncPath = "sudo rsync"
				if u := syncVar(env, "ansible_become_user"); u != "" {
					plan.rsyncPath = "sudo -u " + u + " rsync"
				}
			}
		}
	}
	plan.src, plan.dest = local, remote
	if pull {
		plan.src, plan.dest = remote, local
	}
	return plan, nil
}

// syncOrigin is the action's _get_absolute_path: a path naming a host
// or an absolute path stays; a relative one is looked up as a file of
// the play (files/ of the role or the playbook), keeping a trailing /.
func syncOrigin(env *tasks.Env, p string) string {
	if strings.Contains(p, ":") || strings.HasPrefix(p, "/") {
		return p
	}
	found := ""
	if env.FindFile != nil {
		found, _ = env.FindFile("files", p)
	}
	if found == "" {
		found = syncAbs(p)
	}
	if strings.HasSuffix(p, "/") && !strings.HasSuffix(found, "/") {
		found += "/"
	}
	return found
}

// syncVar is a variable of the task's scope as text; empty when it is
// not defined (or not text the module can use).
func syncVar(env *tasks.Env, name string) string {
	if env.Eval == nil {
		return ""
	}
	v, err := env.Eval(name)
	if err != nil || v == nil {
		return ""
	}
	return expr.Str(v)
}

// syncDelegated says whether the task is delegated (delegate_to): the
// engine then defines ansible_delegated_vars.
func syncDelegated(env *tasks.Env) bool {
	if env.Eval == nil {
		return false
	}
	v, err := env.Eval("ansible_delegated_vars")
	return err == nil && v != nil
}

// syncRsyncPath is the controller's rsync: _local_rsync_path (the
// action sets it from ansible_rsync_path) looked up on PATH unless it
// holds a /. A missing program fails as the module's get_bin_path does.
func syncRsyncPath(env *tasks.Env) (string, string) {
	name := shared.OrDefault(syncVar(env, "ansible_rsync_path"), "rsync")
	if strings.Contains(name, "/") {
		return name, ""
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, exec.ErrDot) {
			return "", "Failed to find required executable \"" + name + "\" in paths: " +
				strings.Join(filepath.SplitList(syncGetPath()), ":")
		}
		return "", err.Error()
	}
	return p, ""
}

// syncGetPath is the controller's PATH.
func syncGetPath() string { v, _ := syncLookupEnv("PATH"); return v }

// syncResult is the task's result for rsync's exit status and output,
// as the module reports it: a failure with rsync's stderr, or changed
// from the marked lines.
func syncResult(line syncLine, rc int, stdout, stderr string, diff bool) tasks.Result {
	if rc != 0 {
		r := shared.Fail(stderr)
		r.RC = rc
		r.Data["rc"], r.Data["cmd"] = rc, line.Cmd
		r.Warnings = line.Warnings
		return shared.WithWarnings(r)
	}
	changed, msg, lines := syncOutcome(stdout, line.LinkDest)
	d := map[string]any{"rc": 0, "cmd": line.Cmd, "stdout_lines": lines}
	r := tasks.Result{Changed: changed, Msg: msg, Data: d, Warnings: line.Warnings}
	d["msg"] = msg
	if diff {
		d["diff"] = map[string]any{"prepared": msg}
		r.Diff = msg
	}
	return shared.WithWarnings(r)
}
