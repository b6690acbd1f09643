//go:build e2e

package files

import (
	"os/exec"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestSynchronizeFleet runs testdata/synchronize/tasks.yml (push and
// pull, check and diff modes, idempotence, delete, archive and its
// sub-flags, copy_links, existing_only, rsync_opts, rsync_path, link_dest,
// the ssh options, and failures: missing paths on either side, a missing
// remote rsync, bad arguments) with tender's synchronize, whose rsync runs
// on this machine (the controller) and reaches a fresh debian-sys host over
// the test's connection, and compares every result, and what the shell
// tasks between them show of the host, with what ansible-core returned
// (testdata/synchronize/ansible.json, recorded by gen.sh with the same
// controller files: controller.sh makes them for both).
func TestSynchronizeFleet(t *testing.T) {
	if _, err := exec.LookPath("rsync"); err != nil {
		t.Skip("no rsync on the controller (.ci/install.sh test installs it)")
	}
	dir := "../testdata/synchronize"
	if out, err := exec.Command("sh", dir+"/controller.sh").CombinedOutput(); err != nil {
		t.Fatalf("controller.sh: %v\n%s", err, out)
	}
	env := modtest.InitHost(t, "sys", dir, "")
	// cmd: Ansible's rsync logs in with its own ssh (--rsh='/usr/bin/ssh
	// -S none -i KEY -o Port=PORT ...', user@address:path); tender's
	// reaches the host over its own connection through a bridge, so its
	// command line names that bridge: each run's key and port differ
	// anyway.
	ignore := map[string][]string{}
	for _, name := range []string{"s_push_check", "s_push", "s_push_again", "s_push_check_same", "s_diff",
		"s_delete_check", "s_delete", "s_no_slash", "s_not_archive", "s_not_archive_again", "s_not_archive_bare",
		"s_sub_flags", "s_copy_links", "s_existing_only", "s_rsync_opts", "s_rsync_path", "s_ssh_options",
		"s_link_dest", "s_pull_check", "s_pull", "s_pull_again", "s_missing_src", "s_missing_remote_src",
		"s_dest_parent_missing", "s_bad_remote_rsync"} {
		ignore[name] = []string{"cmd"}
	}
	// With link_dest the module asks rsync for -vv, whose output opens
	// with the remote shell's command line ("opening connection using:
	// /usr/bin/ssh ..." for Ansible, the bridge for tender);
	// s_look_linked shows the hard links made.
	ignore["s_link_dest"] = []string{"cmd", "msg", "stdout_lines"}
	// A missing remote rsync: the host's shell says so in its own words
	// (bash, root's login shell under Ansible's ssh: "bash: line 1: ...";
	// sh under tender's connection); rsync's lines after it are the same.
	ignore["s_bad_remote_rsync"] = []string{"cmd", "msg"}
	// A source missing on the host: the remote sender gives up at once.
	// Ansible's ssh then ends with it, so rsync's last write on the
	// controller may break the pipe (one more line, "rsync: [Receiver]
	// write error: Broken pipe (32)", depending on timing); tender's
	// bridge reads on until rsync closes its side. rc, failed and
	// changed are still compared.
	ignore["s_missing_remote_src"] = []string{"cmd", "msg"}
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", ignore)
}
