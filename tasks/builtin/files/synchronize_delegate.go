package files

import (
	"context"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// syncSSH is how a delegate's ssh logs in to the host, from the host's
// variables and the task's options, as the action and module build it.
type syncSSH struct {
	key, port, args string
	multiplex       bool
	verify          bool
}

// syncDelegation is what the action decides for a delegated task.
type syncDelegation struct {
	// self: the delegate is the host (by name or address): rsync copies
	// between two of its own paths.
	self bool
	user string
	ssh  syncSSH
}

// syncDelegatePlan reads, for a delegated task, the host's connection
// variables the delegate's ssh needs.
func syncDelegatePlan(env *tasks.Env, a tasks.Values, host, user string) (syncDelegation, error) {
	d := syncDelegation{user: user}
	to := ""
	if v, err := env.Eval("ansible_delegated_vars.keys() | list | first"); err == nil && v != nil {
		to = shared.PyToStr(v)
	}
	if to != "" && (to == syncVar(env, "inventory_hostname") || to == syncVar(env, "ansible_host")) {
		d.self = true
		return d, nil
	}
	d.ssh.key = a.Str("private_key")
	if d.ssh.key == "" {
		d.ssh.key = shared.OrDefault(syncVar(env, "ansible_ssh_private_key_file"), syncVar(env, "ansible_private_key_file"))
	}
	d.ssh.port = syncVar(env, "ansible_port")
	if a.Has("dest_port") {
		d.ssh.port = shared.PyToStr(a["dest_port"])
	}
	d.ssh.multiplex, d.ssh.verify = a.Bool("ssh_connection_multiplexing"), a.Bool("verify_host")
	d.ssh.args = a.Str("ssh_args")
	if a.Bool("use_ssh_args") && shared.OrDefault(syncVar(env, "ansible_connection"), "ssh") == "ssh" {
		var parts []string
		for _, v := range []string{syncVarOr(env, "ansible_ssh_args", "-C -o ControlMaster=auto -o ControlPersist=60s"),
			syncVar(env, "ansible_ssh_common_args"), syncVar(env, "ansible_ssh_extra_args")} {
			if v != "" {
				parts = append(parts, v)
			}
		}
		d.ssh.args = strings.Join(parts, " ")
	}
	return d, nil
}

// syncVarOr is syncVar with a default.
func syncVarOr(env *tasks.Env, name, def string) string {
	return shared.OrDefault(syncVar(env, name), def)
}

// rsh is the ssh command line the module gives rsync's --rsh.
func (s syncSSH) rsh(sshBin string) string {
	words := []string{sshBin}
	if !s.multiplex {
		words = append(words, "-S", "none")
	}
	if s.key != "" {
		words = append(words, "-i", s.key)
	}
	if s.port != "" {
		words = append(words, "-o", "Port="+s.port)
	}
	if !s.verify {
		words = append(words, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null")
	}
	for i, w := range words {
		words[i] = shared.Q(w)
	}
	out := strings.Join(words, " ")
	if s.args != "" {
		out += " " + s.args
	}
	return out
}

// syncFindScript prints where the delegate's rsync and ssh are
// (rsync= and ssh=, empty when missing).
const syncFindScript = `for p in "$rsync" ssh; do case $p in */*) echo "$p" ;; *) command -v "$p" || echo ;; esac; done`

// syncOnDelegate runs rsync through the task's connection (the
// delegate's, or the host's own when delegated to itself): a first
// round trip finds rsync and ssh there, a second runs the command line.
func syncOnDelegate(ctx context.Context, env *tasks.Env, a tasks.Values, plan syncPlan) (tasks.Result, error) {
	name := syncVarOr(env, "ansible_rsync_path", "rsync")
	res, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"rsync", name}})+syncFindScript+"\n", nil)
	if err != nil {
		return tasks.Result{}, err
	}
	found := strings.Split(strings.TrimRight(string(res.Stdout), "\n"), "\n")
	for len(found) < 2 {
		found = append(found, "")
	}
	if found[0] == "" {
		return shared.Fail("Failed to find required executable \"" + name + "\" on the host rsync runs on"), nil
	}
	rsh := ""
	if syncNeedsRsh(plan.src, plan.dest) && !syncHasRsh(a.Strings("rsync_opts")) {
		if found[1] == "" {
			return shared.Fail("Failed to find required executable \"ssh\" on the host rsync runs on"), nil
		}
		rsh = plan.ssh.rsh(found[1])
	}
	line, fail := syncCmdLine(a, found[0], plan.src, plan.dest, rsh, plan.rsyncPath, env.Check)
	if fail != "" {
		return shared.Fail(fail), nil
	}
	// The words as run_command splits them; the delegate's own
	// environment is not the controller's, so nothing is expanded here.
	argv, err := syncShlex(line.Cmd)
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = shared.Q(w)
	}
	script := "LANG=C LC_ALL=C LC_MESSAGES=C; export LANG LC_ALL LC_MESSAGES\nexec " + strings.Join(words, " ") + " </dev/null\n"
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return syncResult(line, out.ExitCode, string(out.Stdout), string(out.Stderr), env.Diff), nil
}
