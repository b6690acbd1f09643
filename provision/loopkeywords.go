package provision

import (
	"reflect"
	"slices"

	"github.com/tender-sh/tender/playbooks"
)

// itemKw is a loop item's keywords, or why they did not evaluate.
type itemKw struct {
	kw  keywords
	err error
}

// itemKeywords evaluates t's keywords on h once per loop item, with the
// item's loop variables (vars). same reports whether every item got the
// keywords the task has without them (kw), so that the items may still go
// to the module together.
func (pr *playRun) itemKeywords(h *hostRun, t *playbooks.Task, kw keywords, kwFailed bool, vars []map[string]any) ([]itemKw, bool) {
	out := make([]itemKw, len(vars))
	same := !kwFailed
	var delegates []string
	for i, v := range vars {
		k, err := pr.resolve(t, pr.scope(h, t, v))
		out[i] = itemKw{k, err}
		if err != nil || !sameConnection(k, kw) {
			same = false
		}
		if err == nil && k.delegateTo != "" && !slices.Contains(delegates, k.delegateTo) {
			delegates = append(delegates, k.delegateTo)
		}
	}
	for i := range out {
		out[i].kw.delegates = delegates
	}
	return out, same
}

// sameConnection reports whether a and b run a task the same way: the
// same host, user, privileges and environment.
func sameConnection(a, b keywords) bool {
	return a.delegateTo == b.delegateTo && a.become == b.become && a.becomeUser == b.becomeUser &&
		a.becomeMethod == b.becomeMethod && a.becomeFlags == b.becomeFlags && a.becomeExe == b.becomeExe &&
		a.remoteUser == b.remoteUser && a.connection == b.connection && a.port == b.port &&
		a.check == b.check && a.diff == b.diff && a.noLog == b.noLog && a.timeout == b.timeout &&
		reflect.DeepEqual(a.environment, b.environment)
}

// keywordFailure is the outcome of a loop item whose keywords did not
// evaluate: skipped when the item's when: does not hold (Ansible checks
// keywords only for a task that runs), failed with the when:'s error when
// it fails, else failed with the keyword's; either ends the loop.
func (pr *playRun) keywordFailure(h *hostRun, t *playbooks.Task, err error, vars map[string]any) outcome {
	ok, cerr := pr.conditionsHold(h, t, vars)
	switch {
	case cerr == nil && !ok:
		return skippedByCondition()
	case cerr != nil:
		// A when: that fails is the error: Ansible evaluates it before
		// it validates the item's keywords.
		out := aborting(cerr)
		out.unvalidated = true
		return out
	}
	return failure(err)
}

// rawDelegate is t's delegate_to as written, not rendered (the innermost
// level's that sets it).
func (pr *playRun) rawDelegate(t *playbooks.Task) string {
	raw := ""
	for _, l := range pr.keywordLevels(t) {
		if l.DelegateTo != "" {
			raw = l.DelegateTo
		}
	}
	return raw
}
