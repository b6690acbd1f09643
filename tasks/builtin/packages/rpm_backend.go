package packages

import (
	"context"
	_ "embed"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// yumProbe names the host's yum backend when facts do not: dnf where it
// is installed (yum is dnf's compatibility command on RedHat 8 and later),
// else yum.
//
//go:embed yum_probe.sh
var yumProbe string

// yumBackend picks the command yum runs as Ansible's yum action picks its
// backend module: use or use_backend when given (yum4 is dnf), else the
// ansible_pkg_mgr fact, else a probe of the host. On a dnf host, yum tasks
// therefore run dnf. It returns "" and the failure when no backend fits;
// probed is what a probe found (Ansible's action then sets the pkg_mgr
// fact), "" when none ran.
func yumBackend(ctx context.Context, env *tasks.Env, use, useBackend string) (tool, probed string, res tasks.Result, err error) {
	if use != "" && useBackend != "" {
		return "", "", shared.Fail("parameters are mutually exclusive: ('use', 'use_backend')"), nil
	}
	b := use
	if b == "" {
		b = useBackend
	}
	if b == "" || b == "auto" {
		b = "auto"
		if env.Eval != nil {
			if v, err := env.Eval("ansible_pkg_mgr"); err == nil {
				if s, ok := v.(string); ok && s != "" {
					b = s
				}
			}
		}
	}
	if b != "yum" && b != "yum4" && b != "dnf" {
		out, err := shared.Run(ctx, env, yumProbe, nil)
		if err != nil {
			return "", "", tasks.Result{}, err
		}
		b = strings.TrimSpace(string(out.Stdout))
		if b != "auto" {
			probed = b
		}
	}
	switch b {
	case "yum", "dnf":
		return b, probed, tasks.Result{}, nil
	case "yum4":
		return "dnf", probed, tasks.Result{}, nil
	}
	return "", "", shared.Fail("Could not detect which major revision of yum is in use, which is required to determine module backend. " +
		"You should manually specify use_backend to tell the module whether to use the yum (yum3) or dnf (yum4) backend})"), nil
}
