package provision

import (
	"context"
	"fmt"
	"maps"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision/facts"
	"github.com/tender-sh/tender/tasks"
)

// factsGathered is the fact Ansible's gather_facts adds to ansible_facts
// (and only there).
const factsGathered = "_ansible_facts_gathered"

// setup gathers facts on h (the setup module, or gather_facts) over the
// connection a task with keywords kw uses: through become when it has
// become, as Ansible runs setup, so that ansible_user_id, ansible_env and
// the other facts of the user name the become user.
func (pr *playRun) setup(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, scope *expr.Vars) outcome {
	o, err := setupOptions(t, scope)
	if err != nil {
		return failure(err)
	}
	c, _, err := pr.conn(ctx, h, kw, scope)
	if err != nil {
		return failure(err)
	}
	gctx, cancel := context.WithTimeout(ctx, facts.Timeout(o.Int("gather_timeout")))
	f, err := facts.GatherWith(gctx, c, facts.ScriptFor(o.Str("fact_path")))
	cancel()
	if err != nil {
		if gctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			err = fmt.Errorf("gathering facts took longer than gather_timeout (%d s) allows, with %s for mounts", o.Int("gather_timeout"), facts.MountTimeout)
		}
		return failure(err)
	}
	if f, err = facts.Subset(f, o.Strings("gather_subset")); err != nil {
		return failure(err)
	}
	f = facts.Filter(f, o.Strings("filter"))
	// As Ansible: the facts of a delegated setup are the task's host's
	// unless delegate_facts says they are the delegate's.
	if kw.delegateTo != "" && kw.delegateFacts {
		if h, err = pr.delegateHost(kw.delegateTo); err != nil {
			return failure(err)
		}
	}
	// As Ansible: what setup returns joins the facts the host has, a
	// subset or a filter leaving the others as they were. The facts were
	// just parsed from the host's answer, this host's alone: they are
	// marked unsafe in place, not copied twice.
	got := yaml11.MarkOwned(f).(map[string]any)
	pr.rn.share.share(got)
	merged := maps.Clone(h.facts)
	if merged == nil {
		merged = map[string]any{}
	}
	maps.Copy(merged, got)
	if pr.rn.engine(t) == tasks.EngineGatherFacts || t.Action == tasks.EngineDef(tasks.EngineGatherFacts).Name {
		// The play's fact gathering and the gather_facts module mark
		// the facts gathered (setup does not), as Ansible's do.
		merged[factsGathered] = true
	}
	h.facts = merged
	h.gathered = true
	h.refreshFacts()
	pr.rn.cacheFacts(h)
	// The result holds the facts as setup returns them (ansible_<name>),
	// which register keeps.
	return outcome{data: map[string]any{"changed": false, "failed": false, "ansible_facts": setupFacts(got)}}
}

// setupFacts are facts as setup returns them: ansible_<name>, but for the
// few it returns under their own names (gather_subset, module_setup).
func setupFacts(gathered map[string]any) map[string]any {
	out := make(map[string]any, len(gathered))
	for k, v := range gathered {
		if facts.Unprefixed(k) {
			out[k] = v
		} else {
			out["ansible_"+k] = v
		}
	}
	return out
}

// gather runs fact gathering as ansible-playbook's "Gathering Facts" task,
// with the play's keywords (become, environment).
func (pr *playRun) gather(ctx context.Context, hosts []*hostRun) {
	// As Ansible's: the setup module, run as the gather_facts action.
	t := &playbooks.Task{Name: "Gathering Facts", Module: tasks.EngineDef(tasks.EngineSetup).Name,
		Action: tasks.EngineDef(tasks.EngineGatherFacts).Name, Pos: pr.play.Pos, Args: pr.gatherArgs()}
	pr.rn.emit(Event{Kind: TaskStart, Play: pr.name, Task: t.Name, Path: t.Pos.String(), CheckMode: pr.checkMarked(nil)})
	pr.forEach(hosts, func(h *hostRun) {
		scope := pr.scope(h, nil, nil)
		var out outcome
		if ok, err := pr.conditionsHold(h, t, nil); err != nil {
			out = failure(err)
		} else if !ok {
			out = skippedByCondition() // an import_playbook's when: that does not hold
		} else if kw, err := pr.resolve(t, scope); err != nil {
			out = failure(err)
		} else {
			out = pr.setup(ctx, h, t, kw, scope)
		}
		pr.finish(h, t, keywords{}, out, false, nil)
	})
}
