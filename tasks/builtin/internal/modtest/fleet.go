package modtest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// initImages are the fleet images of the host kinds
// testdata/service_facts/record.sh records on.
var initImages = map[string]string{
	"sys":       "tender-e2e/debian-sys",
	"systemd":   "tender-e2e/debian-systemd",
	"openrc":    "tender-e2e/debian-openrc",
	"rh":        "tender-e2e/rh",
	"netadmin":  "tender-e2e/debian-sys",
	"sysadmin":  "tender-e2e/debian-sys",
	"firewalld": "tender-e2e/debian-firewalld",
	"node":      "tender-e2e/debian-node",
}

// InitHost starts a fresh fleet container of a kind of
// testdata/service_facts/record.sh, exactly as that script starts it
// (same image, flags and hostname), with dir mounted at /srv/testdata,
// runs dir/setup in it (when not "") and returns an Env on it through
// docker exec.
func InitHost(t *testing.T, kind, dir, setup string) *tasks.Env {
	t.Helper()
	image := initImages[kind]
	fleetimage.Need(t, image)
	dir, _ = filepath.Abs(dir)
	mounts := []string{"-v", dir + ":/srv/testdata:ro"}
	var cmd *exec.Cmd
	switch kind {
	case "systemd":
		keys := filepath.Join(t.TempDir(), "keys")
		os.WriteFile(keys, nil, 0o644)
		cmd = exec.Command("sh", append([]string{Path("../../e2e/fleet/run-systemd.sh"), keys, "--hostname", kind}, mounts...)...)
	case "firewalld":
		keys := filepath.Join(t.TempDir(), "keys")
		os.WriteFile(keys, nil, 0o644)
		cmd = exec.Command("sh", append([]string{Path("../../e2e/fleet/run-systemd.sh"), keys, "--cap-add", "NET_ADMIN",
			"--hostname", kind}, mounts...)...)
		cmd.Env = append(os.Environ(), "TENDER_SYSTEMD_IMAGE="+image)
	case "openrc":
		cmd = exec.Command("docker", append(append([]string{"run", "-d", "--tmpfs", "/run", "-e", "container=docker",
			"--hostname", kind}, mounts...), image)...)
	case "netadmin":
		cmd = exec.Command("docker", append(append([]string{"run", "-d", "--cap-add", "NET_ADMIN", "--hostname", kind},
			mounts...), image)...)
	case "sysadmin":
		cmd = exec.Command("docker", append(append([]string{"run", "-d", "--cap-add", "SYS_ADMIN",
			"--security-opt", "apparmor=unconfined", "--hostname", kind}, mounts...), image)...)
	default:
		cmd = exec.Command("docker", append(append([]string{"run", "-d", "--hostname", kind}, mounts...), image)...)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("starting a %s host: %v\n%s", kind, err, out)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", id).Run() })
	c := DockerConn(t, id)
	ctx := context.Background()
	settle, err := os.ReadFile(Path("testdata/service_facts/settle.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.Run(ctx, transport.Cmd{Script: string(settle)}); err != nil || res.ExitCode != 0 {
		t.Fatalf("the %s host did not boot: %v %s", kind, err, res.Stderr)
	}
	if setup != "" {
		b, err := os.ReadFile(filepath.Join(dir, setup))
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Run(ctx, transport.Cmd{Script: string(b)})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("%s: %v %s %s", setup, err, res.Stdout, res.Stderr)
		}
	}
	env, cc := TestEnv(t, t.TempDir(), nil)
	cc.Conn = c
	return env
}

// initModules are the modules the fleet tests of this file and its
// siblings run by name; any other module of a task list (shell, to
// look at the host) comes from the registry.
var initModules = map[string]bool{
	"service_facts": true, "sysvinit": true, "yum_repository": true,
	"rpm_key": true, "git": true, "subversion": true,
}

// CompareFleet runs the tasks of dir/taskFile with tender's modules
// through env and compares each result with what ansible-core
// registered for it on an identical host (dir/recorded, written by the
// module's gen.sh), normalized as TestFidelity normalizes, with the keys
// of ignore[task] left out (each for a reason the caller states). With
// TENDER_FLEET_LOG set, it logs every result tender's modules gave.
func CompareFleet(t *testing.T, env *tasks.Env, dir, taskFile, recorded string, ignore map[string][]string) {
	t.Helper()
	var want map[string]map[string]any
	b, err := os.ReadFile(filepath.Join(dir, recorded))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	scope := expr.NewVars(map[string]any{})
	seen := 0
	for _, task := range LoadTaskList(t, filepath.Join(dir, taskFile)) {
		got := runFleetTask(t, env, scope, task)
		if os.Getenv("TENDER_FLEET_LOG") != "" {
			j, _ := json.Marshal(got)
			t.Logf("%s: %s", task.Name, j)
		}
		w, ok := want[task.Name]
		if !ok {
			t.Errorf("%s: not recorded; run %s/gen.sh", task.Name, dir)
			continue
		}
		seen++
		g, wn := Normalize(got, "", ""), Normalize(w, "", "")
		for _, k := range ignore[task.Name] {
			delete(g, k)
			delete(wn, k)
		}
		if !reflect.DeepEqual(g, wn) {
			t.Errorf("%s:\n%s", task.Name, DescribeDiff(g, wn))
		}
	}
	t.Logf("%d tasks compared with ansible-core", seen)
}

// runFleetTask runs one recorded task as runRecorded does, with the
// modules of initModules, in diff mode when the task asks.
func runFleetTask(t *testing.T, env *tasks.Env, scope *expr.Vars, task recordedTask) map[string]any {
	t.Helper()
	defer func(d bool) { env.Diff = d }(env.Diff)
	env.Diff = env.Diff || task.diff
	f, ok := modules.Lookup(task.module)
	if !ok || !initModules[task.module] {
		return RunRecorded(t, env, scope, task)
	}
	env.Check = task.Check
	res, err := f().Run(context.Background(), env, task.args)
	if err != nil {
		msg, _, _ := strings.Cut(tasks.AsWritten(err, task.module).Error(), " Did you mean")
		res = tasks.Result{Failed: true, Msg: msg}
	}
	return Registered(res)
}
