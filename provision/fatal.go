package provision

import (
	"slices"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// What ends a play early: any_errors_fatal (and run_once, as Ansible's
// strategy treats it) and max_fail_percentage.

// rawKeyword is a boolean keyword of t as Ansible's strategy reads it:
// the innermost level that sets it, untemplated, so that a template
// ("{{ false }}", "{{ nope }}") is a non-empty string, and true.
func (pr *playRun) rawKeyword(t *playbooks.Task, get func(*playbooks.Keywords) playbooks.Bool) bool {
	var b playbooks.Bool
	for _, kw := range pr.keywordLevels(t) {
		if v := get(kw); v.Set {
			b = v
		}
	}
	return b.Set && (b.Expr != "" || b.Bad != nil && expr.Truthy(b.Bad) || b.Value)
}

func anyErrorsFatal(k *playbooks.Keywords) playbooks.Bool { return k.AnyErrorsFatal }
func ignoreErrors(k *playbooks.Keywords) playbooks.Bool   { return k.IgnoreErrors }

// checkMaxFail ends the play, and the run, when more of the batch's
// hosts have failed than the play's max_fail_percentage allows, checked
// after each task as Ansible's linear strategy does (a failure that
// leads into a rescue or an always section is not counted yet). Ansible
// says "NO MORE HOSTS LEFT" twice then: for the percentage, and because
// it fails the hosts still running with them. The free and host_pinned
// strategies do not check it (see maxFailWarning), as Ansible's: each
// host runs on its own.
func (pr *playRun) checkMaxFail(t *playbooks.Task) {
	pct, ok := pr.play.MaxFailPercentage.(float64)
	if !ok || pr.perHost() || pr.abort || len(pr.batchHosts) == 0 || recoverable(t) {
		return
	}
	failed := 0
	for _, h := range pr.batchHosts {
		if h.failed && !h.unreachable {
			failed++
		}
	}
	if float64(failed)/float64(len(pr.batchHosts)) <= pct/100 {
		return
	}
	pr.abort, pr.fatal = true, true
	pr.rn.emit(Event{Kind: NoHostsLeft, Play: pr.name})
	pr.rn.emit(Event{Kind: NoHostsLeft, Play: pr.name})
}

// endIfFatal ends the play when fatal (any_errors_fatal, or run_once as
// Ansible treats it) holds for t and a host failed in it, unless the
// failure leads into a rescue or an always section, which runs.
func (pr *playRun) endIfFatal(hosts []*hostRun, t *playbooks.Task, fatal bool) {
	if fatal && !recoverable(t) && !pr.abort {
		for _, h := range hosts {
			if h.failed {
				pr.abort, pr.fatal = true, true
			}
		}
		if pr.fatal {
			pr.rn.emit(Event{Kind: NoHostsLeft, Play: pr.name})
		}
	}
}

// recoverable reports whether a failure of t leads into a rescue or an
// always section of a block around it. One exception is Ansible's: its
// linear strategy judges from the host's innermost state once the
// failure has moved it on, and a failure in an always section that leads
// to an outer always section beginning with a block (or an import, which
// Ansible loads as blocks) finds that block iterating its tasks, so the
// failure is not taken for protected (recorded with ansible-playbook 2.14;
// a rescue, or a failure outside an always section, is protected).
func recoverable(t *playbooks.Task) bool {
	inAlways := false
	for c, p := t, t.Parent; p != nil; c, p = p, p.Parent {
		if p.Kind != playbooks.KindBlock {
			continue
		}
		switch {
		case len(p.Rescue) > 0 && slices.Contains(p.Block, c.Original()):
			return true
		case len(p.Always) > 0 && !slices.Contains(p.Always, c.Original()):
			return !inAlways || !opensBlock(p.Always)
		case slices.Contains(p.Always, c.Original()):
			inAlways = true
		}
	}
	return false
}

// opensBlock reports whether the section's first entry is a block (or an
// import of tasks or of a role).
func opensBlock(section []*playbooks.Task) bool {
	switch section[0].Kind {
	case playbooks.KindBlock, playbooks.KindImportTasks, playbooks.KindImportRole:
		return true
	}
	return false
}

// maxFailWarning is Ansible's warning for max_fail_percentage under a
// strategy that runs each host on its own, which ignores it.
func (pr *playRun) maxFailWarning() {
	if _, ok := pr.play.MaxFailPercentage.(float64); ok && pr.perHost() {
		pr.rn.emit(Event{Kind: Warning, Play: pr.name,
			Msg: "Using max_fail_percentage with the free strategy is not supported, as tasks are executed independently on each host"})
	}
}
