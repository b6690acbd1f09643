package packages

import (
	"context"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestPackageHonoursAllowList: a run that allows package but not apt must
// not reach apt through package.
func TestPackageHonoursAllowList(t *testing.T) {
	only, err := modtest.Modules().Restrict("package", "debug")
	if err != nil {
		t.Fatal(err)
	}
	env := &tasks.Env{Host: "h", Modules: only}
	res, err := packageModule{}.Run(context.Background(), env, tasks.Args{"name": "tree", "state": "present", "use": "apt"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed || !strings.Contains(res.Msg, "apt, which this run does not allow") {
		t.Errorf("package handed the task to a module outside the allow-list: %+v", res)
	}
	res, err = packageModule{}.Run(context.Background(), env, tasks.Args{"name": "tree", "state": "present", "use": "nosuch"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed || res.Msg != "Could not find a module for nosuch." {
		t.Errorf("unknown manager: %+v", res)
	}
}

// TestPackageLeavesStateToManager: package checks only use, as Ansible's
// action does; name and state are the manager module's (apt defaults
// state to present), so a task without state reaches the manager.
func TestPackageLeavesStateToManager(t *testing.T) {
	env := &tasks.Env{Host: "h", Modules: modtest.Modules()}
	mod, res, err := packageModule{}.manager(context.Background(), env, tasks.Args{"name": "tree", "use": "apt"})
	if err != nil || mod == nil {
		t.Fatalf("package without state did not reach apt: %+v %v", res, err)
	}
	if _, ok := mod.(aptModule); !ok {
		t.Errorf("package with use=apt chose %T", mod)
	}
}
