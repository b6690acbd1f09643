package provision

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// keywords are a task's effective keywords: the play's, overridden by each
// level it inherits from (role uses, blocks, imports), then its own.
type keywords struct {
	become       bool
	becomeUser   string
	becomeMethod string
	ignoreErrors bool
	// rawIgnoreErrors is ignore_errors as written, not evaluated (a
	// template's text is true): what Ansible's strategy reads when the
	// task failed before its keywords were validated.
	rawIgnoreErrors bool
	noLog           bool
	runOnce         bool
	anyErrorsFatal  bool
	check           bool
	diff            bool
	delegateTo      string
	// delegates are the delegates of every item of a looped task, in
	// order (ansible_delegated_vars names them all); nil otherwise.
	delegates   []string
	environment []any // each level's environment (a map or a template), outermost first
	// gathersFacts: the task is setup or gather_facts, whose environment
	// may not use the facts it gathers (envVars).
	gathersFacts bool
	// ignoreUnreachable keeps an unreachable host in the play (counted ok
	// and ignored); delegateFacts gives the facts a delegated task
	// returns to the delegate.
	ignoreUnreachable, delegateFacts bool
	becomeFlags, becomeExe           string
	// remoteUser, connection and port are the keywords' values: the
	// connection variables (ansible_user, …) win over them.
	remoteUser, connection, port string
	// throttle bounds how many hosts run the task at once (0: forks);
	// timeout bounds the module's run in seconds (0: none).
	throttle, timeout int
	// throttleErr: throttle did not convert to an integer. Ansible's
	// strategy reads throttle before it runs the task, and ends the run.
	throttleErr error
}

// resolve computes t's effective keywords on a host, evaluating templated
// booleans in scope.
func (pr *playRun) resolve(t *playbooks.Task, scope expr.Scope) (keywords, error) {
	d := pr.rn.r.Defaults
	k := keywords{check: pr.rn.r.Check, diff: pr.rn.r.Diff, become: d.Become, becomeUser: d.BecomeUser,
		becomeMethod: d.BecomeMethod, becomeExe: d.BecomeExe, becomeFlags: d.BecomeFlags,
		remoteUser: d.RemoteUser, connection: d.Connection, port: d.Port}
	k.gathersFacts = pr.rn.engine(t).GathersFacts()
	levels := pr.keywordLevels(t)
	// The string keywords as each level sets them, outermost first:
	// become_user, become_method, delegate_to, become_flags, become_exe,
	// remote_user, connection, port.
	strs := make([][]string, 8)
	// Every boolean is read even after one fails, so that the failure is
	// reported with the others in force (ignore_errors, no_log).
	var bad error
	badName := "" // the keyword that failed first
	var ignoreErrors playbooks.Bool
	for _, kw := range levels {
		if kw.IgnoreErrors.Set {
			ignoreErrors = kw.IgnoreErrors
		}
		for _, b := range []struct {
			name string
			v    playbooks.Bool
			dst  *bool
		}{
			{"become", kw.Become, &k.become}, {"ignore_errors", kw.IgnoreErrors, &k.ignoreErrors}, {"no_log", kw.NoLog, &k.noLog},
			{"run_once", kw.RunOnce, &k.runOnce}, {"any_errors_fatal", kw.AnyErrorsFatal, &k.anyErrorsFatal},
			{"check_mode", kw.CheckMode, &k.check}, {"diff", kw.Diff, &k.diff},
			{"ignore_unreachable", kw.IgnoreUnreachable, &k.ignoreUnreachable},
			{"delegate_facts", kw.DelegateFacts, &k.delegateFacts},
		} {
			if !b.v.Set {
				continue
			}
			v, err := boolValue(b.v, scope)
			if errors.Is(err, errOmitted) {
				continue // as if this level did not set it
			}
			if err != nil {
				if bad == nil {
					bad, badName = fieldError(t, b.name, b.v, err), b.name
				}
				continue
			}
			*b.dst = v
		}
		for i, v := range []string{kw.BecomeUser, kw.BecomeMethod, kw.DelegateTo, kw.BecomeFlags, kw.BecomeExe,
			kw.RemoteUser, kw.Connection} {
			if v != "" {
				strs[i] = append(strs[i], v)
			}
		}
		if kw.Port != nil {
			strs[len(strs)-1] = append(strs[len(strs)-1], expr.Str(kw.Port))
		}
		if kw.Throttle != nil {
			v, err := intKeyword(t, "throttle", kw.Throttle, scope)
			switch {
			case errors.Is(err, errOmitted):
			case err != nil:
				k.throttleErr = atTask(t, &argsError{msg: "Failed to convert the throttle value to an integer.", err: err})
			default:
				k.throttle = v
			}
		}
		if kw.Timeout != nil {
			v, err := intKeyword(t, "timeout", kw.Timeout, scope)
			switch {
			case errors.Is(err, errOmitted):
			case err != nil:
				if bad == nil {
					bad = err
				}
			default:
				k.timeout = v
			}
		}
		if kw.Environment != nil {
			k.environment = append(k.environment, kw.Environment)
		}
	}
	for i, dst := range []*string{&k.becomeUser, &k.becomeMethod, &k.delegateTo, &k.becomeFlags, &k.becomeExe,
		&k.remoteUser, &k.connection, &k.port} {
		v, err := innermost(strs[i], scope)
		if err != nil {
			err = stringFieldError(t, stringKeywords[i], err)
			if dst == &k.delegateTo {
				// Ansible names the delegate as written.
				k.delegateTo = strs[i][len(strs[i])-1]
			}
			if rawIgnoresErrors(ignoreErrors) {
				k.ignoreErrors = true
			}
			return k, err
		}
		if v != nil {
			*dst = *v
		}
	}
	k.rawIgnoreErrors = rawIgnoresErrors(ignoreErrors)
	if bad != nil && ignoreErrorsUnread[badName] && rawIgnoresErrors(ignoreErrors) {
		k.ignoreErrors = true
	}
	if badName == "no_log" {
		// As ignore_errors: the failure is reported under the raw value,
		// which is true.
		k.noLog = true
	}
	return k, bad
}

// playContextKeywords are the boolean keywords Ansible evaluates in its
// play context, before the task's own: one that is not a boolean fails
// with the error given twice and no position.
var playContextKeywords = map[string]bool{"become": true, "no_log": true, "check_mode": true, "diff": true}

// ignoreErrorsUnread are the keywords Ansible evaluates before
// ignore_errors (and ignore_errors itself): when one fails, ignore_errors
// is left as written (rawIgnoresErrors).
var ignoreErrorsUnread = map[string]bool{"become": true, "no_log": true, "check_mode": true, "diff": true,
	"run_once": true, "ignore_errors": true}

// rawIgnoresErrors reports whether ignore_errors, as written and not
// evaluated, ignores a failure: Ansible's strategy then reads the raw
// value, and a template's text (or any other non-empty value) is true.
func rawIgnoresErrors(b playbooks.Bool) bool {
	switch {
	case !b.Set:
		return false
	case b.Expr != "":
		return true
	case b.Bad != nil:
		return expr.Truthy(b.Bad)
	}
	return b.Value
}

// errOmitted is a keyword's value that rendered to omit: the keyword
// takes the value it would have had without it (the enclosing level's,
// else the default), as Ansible's post_validate sets it back to context.
var errOmitted = errors.New("omitted")

// innermost renders the innermost of a string keyword's values (outermost
// first) that does not render to omit; nil when none is set or all are
// omitted.
func innermost(vals []string, scope expr.Scope) (*string, error) {
	for i := len(vals) - 1; i >= 0; i-- {
		v := vals[i]
		if !expr.IsTemplate(v) {
			return &v, nil
		}
		r, err := expr.Render(v, scope)
		if err != nil {
			return nil, err
		}
		if !expr.IsOmit(r) {
			s := expr.Str(r)
			return &s, nil
		}
	}
	return nil, nil
}

// keywordLevels are the keywords t inherits, outermost first: the play's,
// then each level's but the vars-only ones (the play's alone for nil).
func (pr *playRun) keywordLevels(t *playbooks.Task) []*playbooks.Keywords {
	levels := []*playbooks.Keywords{&pr.play.Keywords}
	if t == nil {
		return levels
	}
	for _, l := range t.Levels() {
		if !l.VarsOnly {
			levels = append(levels, l.Keywords)
		}
	}
	return levels
}

// remoteUserIn returns the remote_user keyword in force for t (nil: the
// play's), rendered in scope, for the connection variables the config
// lookup sees (config.ConnectionVar); "" when unset or when it does not
// render.
func (pr *playRun) remoteUserIn(t *playbooks.Task, scope expr.Scope) string {
	users := []string{pr.rn.r.Defaults.RemoteUser}
	for _, kw := range pr.keywordLevels(t) {
		if kw.RemoteUser != "" {
			users = append(users, kw.RemoteUser)
		}
	}
	v, err := innermost(users, scope)
	if err != nil || v == nil {
		return ""
	}
	return *v
}

// notBool is a keyword's value that no boolean reading accepts.
type notBool struct {
	value any
	err   error
}

func (e *notBool) Error() string { return e.err.Error() }
func (e *notBool) Unwrap() error { return e.err }

// fieldError is a keyword's failure to evaluate: for a value that is not
// a boolean, in Ansible's words. A play's keyword (t nil) and a task's
// keyword of the play context say the cause twice; a task's own keyword
// says it once, with where the task is. A task's keyword shows its value
// as written.
// stringKeywords name resolve's string keywords, in its order.
var stringKeywords = []string{"become_user", "become_method", "delegate_to", "become_flags", "become_exe",
	"remote_user", "connection", "port"}

// playContextStrings are the string keywords Ansible validates in its play
// context: an undefined variable there is reported four times, with no
// position.
var playContextStrings = map[string]bool{"become_user": true, "become_method": true, "become_flags": true, "remote_user": true}

// stringFieldError is Ansible's error for a string keyword whose template
// uses an undefined variable; other errors are returned as they are.
func stringFieldError(t *playbooks.Task, name string, err error) error {
	var u *expr.UndefinedError
	if !errors.As(err, &u) || t == nil {
		return err
	}
	if playContextStrings[name] {
		return &argsError{msg: fmt.Sprintf("The field '%s' has an invalid value, which includes an undefined variable. The error was: %s. %s. %s. %s",
			name, u.Msg, u.Msg, u.Msg, u.Msg), err: err}
	}
	return undefinedField(t, name, u, err)
}

// undefinedField is Ansible's error for a task's keyword whose template
// uses an undefined variable, where the task is.
func undefinedField(t *playbooks.Task, name string, u *expr.UndefinedError, err error) error {
	return atTask(t, &argsError{msg: fmt.Sprintf("The field '%s' has an invalid value, which includes an undefined variable. The error was: %s. %s", name, u.Msg, u.Msg), err: err})
}

// intKeyword evaluates throttle or timeout as Ansible does: Python's int()
// of its rendered value, a negative one meaning none (0).
func intKeyword(t *playbooks.Task, name string, v any, scope expr.Scope) (int, error) {
	n, err := intField(t, name, v, scope)
	return max(n, 0), err
}

// intField evaluates an integer keyword (retries, delay, async, poll,
// throttle, timeout) as Ansible's int attributes are: Python's int() of
// its rendered value, with Ansible's messages for a value that does not
// convert and for an undefined variable. errOmitted says it is omit.
func intField(t *playbooks.Task, name string, v any, scope expr.Scope) (int, error) {
	r, err := expr.RenderDeep(v, scope)
	if err != nil {
		var u *expr.UndefinedError
		if errors.As(err, &u) && t != nil {
			return 0, undefinedField(t, name, u, err)
		}
		return 0, &argsError{msg: typeErrorText(err), err: err}
	}
	if expr.IsOmit(r) {
		return 0, errOmitted
	}
	n, err := pyfmt.Int(r)
	if err != nil {
		return 0, atTask(t, &argsError{msg: fmt.Sprintf("the field '%s' has an invalid value (%s), and could not be converted to an int.The error was: %v",
			name, expr.Str(v), err), err: err})
	}
	return n, nil
}

func fieldError(t *playbooks.Task, name string, b playbooks.Bool, err error) error {
	var nb *notBool
	if !errors.As(err, &nb) {
		// The template itself failed: Ansible's templating error, and for
		// an undefined variable in a task's own keyword, its words and
		// where the task is.
		var u *expr.UndefinedError
		if !errors.As(err, &u) || t == nil || playContextKeywords[name] {
			return &argsError{msg: typeErrorText(err), err: err}
		}
		return undefinedField(t, name, u, err)
	}
	shown := expr.Str(nb.value)
	if b.Expr != "" && t != nil {
		shown = b.Expr
	}
	if t == nil || playContextKeywords[name] {
		return fmt.Errorf("the field '%s' has an invalid value (%s), and could not be converted to an bool.The error was: %v. %w", name, shown, nb.err, nb.err)
	}
	// The task's own keywords: the error once, and where the task is.
	return atTask(t, &argsError{msg: fmt.Sprintf("the field '%s' has an invalid value (%s), and could not be converted to an bool.The error was: %v", name, shown, nb.err), err: nb.err})
}

// boolValue evaluates a boolean keyword in scope.
func boolValue(b playbooks.Bool, scope expr.Scope) (bool, error) {
	v := any(b.Value)
	switch {
	case b.Bad != nil:
		v = b.Bad
	case b.Expr != "":
		r, err := expr.Render(b.Expr, scope)
		if err != nil {
			return false, err
		}
		if expr.IsOmit(r) {
			return false, errOmitted
		}
		v = r
	}
	ok, err := toBool(v)
	if err != nil {
		return false, &notBool{value: v, err: err}
	}
	return ok, nil
}

// toBool reads a value as Ansible's strict boolean() does: true, 1, 1.0
// and the strings y, yes, on, 1, true and t in any case, around spaces;
// their opposites for false; nothing else (13 is no boolean).
func toBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case int:
		if x == 0 || x == 1 {
			return x == 1, nil
		}
	case float64:
		if x == 0 || x == 1 {
			return x == 1, nil
		}
	case nil:
		return false, nil
	case string:
		if b, ok := boolean.Word(x); ok {
			return b, nil
		}
	}
	switch v.(type) {
	case []any, map[string]any:
		return false, fmt.Errorf("unhashable type: '%s'", pyTypeName(v))
	}
	return false, fmt.Errorf("The value '%s' is not a valid boolean.  Valid booleans include: %s", expr.Str(v), validBooleans)
}

// validBooleans are the values Ansible's boolean() accepts, as its error
// lists them.
const validBooleans = "'y', 'yes', 'on', '1', 'true', 't', 1, 'n', 'no', 'off', '0', 'false', 'f', 0"

// pyTypeName is Python's name for a value's type.
func pyTypeName(v any) string {
	switch v.(type) {
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

// envVars renders the task's environment as Ansible post-validates it:
// every level's map merged, inner keys winning, each value rendered on
// its own. A value that fails because ansible_env is not defined yet (or,
// for fact gathering, ansible_facts.env) is left out, as Ansible skips it
// until facts give it; a level that is a template rendering to something
// other than a mapping is skipped with a warning.
func (pr *playRun) envVars(levels []any, scope expr.Scope, gathersFacts bool) (map[string]string, error) {
	out := map[string]string{}
	set := func(k string, raw any) error {
		v, err := expr.RenderDeep(raw, scope)
		var u *expr.UndefinedError
		if errors.As(err, &u) {
			if strings.Contains(u.Msg, "ansible_env") || gathersFacts && strings.Contains(u.Msg, "ansible_facts.env") {
				return nil
			}
			return &argsError{msg: fmt.Sprintf("The field 'environment' has an invalid value, which includes an undefined variable. The error was: %s. %s", u.Msg, u.Msg), err: err}
		}
		if err != nil {
			return fmt.Errorf("environment: %w", err)
		}
		out[k] = expr.Str(v)
		return nil
	}
	var add func(levels []any) error
	add = func(levels []any) error {
		for _, l := range levels {
			switch x := l.(type) {
			case []any:
				// a level written as a list: its items are levels
				if err := add(x); err != nil {
					return err
				}
				continue
			case map[string]any:
				for _, k := range pydict.Keys(x) {
					if err := set(k, x[k]); err != nil {
						return err
					}
				}
				continue
			}
			v, err := expr.RenderDeep(l, scope)
			if err != nil {
				return fmt.Errorf("environment: %w", err)
			}
			m, ok := v.(map[string]any)
			if !ok {
				pr.rn.emit(Event{Kind: Warning, Play: pr.name, Msg: fmt.Sprintf("could not parse environment value, skipping: %s", expr.Repr(levels))})
				continue
			}
			for _, k := range pydict.Keys(m) {
				out[k] = expr.Str(m[k])
			}
		}
		return nil
	}
	if err := add(levels); err != nil {
		return nil, err
	}
	return out, nil
}

// checkMarked is the check mode Ansible's callbacks show in a play's or
// task's banner (t nil: the play's): the innermost check_mode keyword,
// read before templating, so that a template, a non-empty string, counts
// as true; else the run's --check.
func (pr *playRun) checkMarked(t *playbooks.Task) bool {
	levels := pr.keywordLevels(t)
	for i := len(levels) - 1; i >= 0; i-- {
		if b := levels[i].CheckMode; b.Set {
			return b.Expr != "" || b.Bad != nil || b.Value
		}
	}
	return pr.rn.r.Check
}
