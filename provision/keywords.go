package provision

import (
	"fmt"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// keywords are a task's effective keywords: the play's, overridden by each
// level it inherits from (role uses, blocks, imports), then its own.
type keywords struct {
	become         bool
	becomeUser     string
	becomeMethod   string
	ignoreErrors   bool
	noLog          bool
	runOnce        bool
	anyErrorsFatal bool
	check          bool
	diff           bool
	delegateTo     string
	environment    []any // each level's environment (a map or a template), outermost first
}

// resolve computes t's effective keywords on a host, evaluating templated
// booleans in scope.
func (pr *playRun) resolve(t *playbooks.Task, scope expr.Scope) (keywords, error) {
	k := keywords{check: pr.rn.r.Check, diff: pr.rn.r.Diff}
	levels := []*playbooks.Keywords{&pr.play.Keywords}
	for _, l := range t.Levels() {
		if !l.VarsOnly {
			levels = append(levels, l.Keywords)
		}
	}
	for _, kw := range levels {
		for _, b := range []struct {
			v   playbooks.Bool
			dst *bool
		}{
			{kw.Become, &k.become}, {kw.IgnoreErrors, &k.ignoreErrors}, {kw.NoLog, &k.noLog},
			{kw.RunOnce, &k.runOnce}, {kw.AnyErrorsFatal, &k.anyErrorsFatal},
			{kw.CheckMode, &k.check}, {kw.Diff, &k.diff},
		} {
			if !b.v.Set {
				continue
			}
			v, err := boolValue(b.v, scope)
			if err != nil {
				return k, err
			}
			*b.dst = v
		}
		if kw.BecomeUser != "" {
			k.becomeUser = kw.BecomeUser
		}
		if kw.BecomeMethod != "" {
			k.becomeMethod = kw.BecomeMethod
		}
		if kw.DelegateTo != "" {
			k.delegateTo = kw.DelegateTo
		}
		if kw.Environment != nil {
			k.environment = append(k.environment, kw.Environment)
		}
	}
	for _, s := range []*string{&k.becomeUser, &k.becomeMethod, &k.delegateTo} {
		if expr.IsTemplate(*s) {
			v, err := expr.Render(*s, scope)
			if err != nil {
				return k, err
			}
			*s = expr.Str(v)
		}
	}
	return k, nil
}

func boolValue(b playbooks.Bool, scope expr.Scope) (bool, error) {
	if b.Expr == "" {
		return b.Value, nil
	}
	v, err := expr.Render(b.Expr, scope)
	if err != nil {
		return false, err
	}
	return toBool(v)
}

// toBool reads a value as Ansible's boolean() does.
func toBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case int:
		return x != 0, nil
	case float64:
		return x != 0, nil
	case nil:
		return false, nil
	case string:
		switch x {
		case "yes", "on", "1", "true", "True", "TRUE", "y", "t", "Yes", "YES", "On", "ON", "Y", "T":
			return true, nil
		case "no", "off", "0", "false", "False", "FALSE", "n", "f", "No", "NO", "Off", "OFF", "N", "F", "":
			return false, nil
		}
	}
	return false, fmt.Errorf("%s is not a valid boolean", expr.Repr(v))
}

// envVars renders the task's environment: every level's map merged, inner
// keys winning.
func envVars(levels []any, scope expr.Scope) (map[string]string, error) {
	out := map[string]string{}
	for _, l := range levels {
		v, err := expr.RenderDeep(l, scope)
		if err != nil {
			return nil, fmt.Errorf("environment: %w", err)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("environment must be a mapping, not %s", expr.Repr(v))
		}
		for k, val := range m {
			out[k] = expr.Str(val)
		}
	}
	return out, nil
}
