package playbooks

import (
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"go.yaml.in/yaml/v3"
)

// scope is what a task list inherits from where it sits.
type scope struct {
	play    *Play
	file    string // absolute path of the file being read
	dir     string // its directory: relative includes start here
	role    *Role  // the role the tasks belong to
	parent  *Task  // the enclosing block, import or include
	handler bool   // reading a handlers section
	tags    []string
	stack   []string // files being included, outermost first
	pbdir   string   // directory of the playbook file that holds the play
	// collections is the collection search list for unqualified module
	// names (collections.go); nil when none was given.
	collections []string
}

func (sc *scope) show(l *loader) string { return l.show(sc.file) }

// taskList decodes a list of tasks (null is an empty list).
func (l *loader) taskList(sc *scope, n *yaml.Node, key string) []*Task {
	file := sc.show(l)
	n = deref(n)
	if !isNode(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		l.errs.add(file, n, "%s must be a list of tasks, not %s", key, kindName(n))
		return nil
	}
	if l.active[n] {
		l.errs.add(file, n, "%s refers to itself through a YAML alias", key)
		return nil
	}
	l.active[n] = true
	defer delete(l.active, n)
	var out []*Task
	for _, item := range n.Content {
		item = deref(item)
		if item.Kind != yaml.MappingNode {
			l.errs.add(file, item, "a task must be a mapping, not %s", kindName(item))
			continue
		}
		if t := l.task(sc, item); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// task decodes one task, block, include or import.
func (l *loader) task(sc *scope, n *yaml.Node) *Task {
	file := sc.show(l)
	if l.count++; l.count > maxTasks {
		if l.count == maxTasks+1 {
			l.errs.add(file, n, "more than %d tasks: is a YAML alias repeating a task list?", maxTasks)
		}
		return nil
	}
	es := l.entries(file, n)
	t := &Task{Pos: posOf(file, n), Parent: sc.parent, Role: sc.role, Handler: sc.handler}
	sc = withCollections(sc, es)
	for _, e := range es {
		if e.key == "block" {
			return l.block(sc, t, es)
		}
	}
	allowed := taskKeys
	var modules, unknown []entry
	var action, localAction *entry
	var args *yaml.Node
	var loopEntries []entry
	for _, e := range es {
		e := e
		switch {
		case e.key == "name":
			t.Name = l.str(file, e.key, e.v)
		case e.key == "action":
			action = &e
		case e.key == "local_action":
			localAction = &e
		case e.key == "args":
			args = e.v
		case e.key == "listen":
			if !sc.handler {
				l.errs.add(file, e.k, "listen is only valid for handlers")
			}
			t.Listen = l.strList(file, e.key, e.v)
		case e.key == "loop" || strings.HasPrefix(e.key, "with_"):
			loopEntries = append(loopEntries, e)
		case e.key == "loop_control":
			t.LoopControl = l.loopControl(file, e.v)
		case e.key == "register":
			t.Register = l.str(file, e.key, e.v)
		case e.key == "changed_when", e.key == "failed_when":
			c := l.conds(file, e.key, e.v)
			l.checkConds(file, e.key, e.v, c)
			if e.key == "changed_when" {
				t.ChangedWhen = c
			} else {
				t.FailedWhen = c
			}
		case e.key == "until":
			t.Until = l.conds(file, e.key, e.v)
			l.checkConds(file, e.key, e.v, t.Until)
		case e.key == "retries":
			t.Retries = l.value(file, e.v)
		case e.key == "delay":
			t.Delay = l.value(file, e.v)
		case e.key == "async":
			t.Async = l.value(file, e.v)
		case e.key == "poll":
			t.Poll = l.value(file, e.v)
		case allowed[e.key]:
			l.keyword(file, e, &t.Keywords)
		default:
			if _, _, _, ok := l.moduleKnown(sc, e.key); ok {
				modules = append(modules, e)
			} else {
				unknown = append(unknown, e)
			}
		}
	}
	l.taskLoop(file, t, loopEntries)
	l.moduleAndArgs(sc, t, n, modules, unknown, action, localAction, args)
	if t.Module == "" {
		return nil
	}
	t.EffectiveTags = mergeTags(sc.tags, t.Tags)
	if t.Kind != KindModule {
		l.include(sc, t, n)
	}
	l.checkTask(file, t)
	l.checkTaskNodes(file, t, es)
	return t
}

// block decodes a block: its own keywords, then block/rescue/always with
// the block as their parent.
func (l *loader) block(sc *scope, t *Task, es []entry) *Task {
	file := sc.show(l)
	t.Kind = KindBlock
	var lists []entry
	for _, e := range es {
		switch {
		case e.key == "name":
			t.Name = l.str(file, e.key, e.v)
		case e.key == "block" || e.key == "rescue" || e.key == "always":
			lists = append(lists, e)
		case blockKeys[e.key] && l.keyword(file, e, &t.Keywords):
		default:
			l.unknownKey(file, e, "block", blockKeys)
		}
	}
	t.EffectiveTags = mergeTags(sc.tags, t.Tags)
	l.checkTaskNodes(file, t, es)
	inner := *sc
	inner.parent = t
	inner.tags = t.EffectiveTags
	for _, e := range lists {
		tasks := l.taskList(&inner, e.v, e.key)
		switch e.key {
		case "block":
			t.Block = tasks
		case "rescue":
			t.Rescue = tasks
		case "always":
			t.Always = tasks
		}
	}
	return t
}

// taskLoop reads loop: or one with_<lookup>: (never both, never two).
func (l *loader) taskLoop(file string, t *Task, es []entry) {
	for i, e := range es {
		if i > 0 {
			prev := es[0].key
			if prev == "loop" || e.key == "loop" {
				l.errs.add(file, e.k, "the loop and %s keywords cannot be used together", firstWith(es))
			} else {
				l.errs.add(file, e.k, "duplicate loop in task: %s and %s", prev, e.key)
			}
			continue
		}
		lp := &Loop{Pos: posOf(file, e.k), Items: l.value(file, e.v)}
		if e.key != "loop" {
			lp.With = strings.TrimPrefix(e.key, "with_")
			if !expr.IsLoopLookup(lp.With) && !l.hasLookupPlugin(lp.With) {
				l.errs.add(file, e.k, "%s: there is no lookup named %q%s", e.key, lp.With, didYouMean(lp.With, expr.LoopLookups()))
			}
		}
		t.Loop = lp
	}
}

func firstWith(es []entry) string {
	for _, e := range es {
		if e.key != "loop" {
			return e.key
		}
	}
	return "with_"
}

// loopControl reads loop_control.
func (l *loader) loopControl(file string, n *yaml.Node) *LoopControl {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		l.errs.add(file, n, "loop_control must be a mapping, not %s", kindName(n))
		return nil
	}
	lc := &LoopControl{}
	for _, e := range l.entries(file, n) {
		switch e.key {
		case "loop_var":
			lc.LoopVar = l.str(file, e.key, e.v)
		case "index_var":
			lc.IndexVar = l.str(file, e.key, e.v)
		case "label":
			lc.Label = l.value(file, e.v)
		case "pause":
			lc.Pause = l.value(file, e.v)
		case "extended":
			lc.Extended = l.boolean(file, e.key, e.v)
		case "extended_allitems":
			lc.ExtendedAllItems = l.boolean(file, e.key, e.v)
		default:
			l.unknownKey(file, e, "loop_control", loopControlKeys)
		}
	}
	return lc
}
