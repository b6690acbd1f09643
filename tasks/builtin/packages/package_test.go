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
	if !res.Failed || !strings.Contains(res.Msg, "Could not detect which package manager") {
		t.Errorf("unknown manager: %+v", res)
	}
}
