package playbooks

import (
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks/expr"

	"go.yaml.in/yaml/v3"
)

// play decodes one play mapping. Keywords are read first and task lists
// after, so tags written below tasks: still reach every task.
func (l *loader) play(abs string, n *yaml.Node) *Play {
	file := l.show(abs)
	p := &Play{Pos: posOf(file, n)}
	var lists []entry
	var roles *yaml.Node
	hasHosts := false
	for _, e := range l.entries(file, n) {
		l.playLevel = true
		isKeyword := playKeys[e.key] && l.keyword(file, e, &p.Keywords)
		l.playLevel = false
		if isKeyword {
			l.checkTree(file, e.v, "")
			continue
		}
		v := e.v
		switch e.key {
		case "name":
			p.Name = l.str(file, e.key, v)
		case "hosts":
			hasHosts = true
			p.Hosts = strings.Join(l.strList(file, e.key, v), ",")
			if strings.Trim(p.Hosts, ", ") == "" {
				l.errs.add(file, v, "hosts list cannot be empty")
			}
		case "gather_facts":
			l.playLevel = true
			p.GatherFacts = l.boolean(file, e.key, v)
			l.playLevel = false
		case "gather_subset":
			p.GatherSubset = l.value(file, v)
		case "gather_timeout":
			p.GatherTimeout = l.value(file, v)
		case "fact_path":
			p.FactPath = l.str(file, e.key, v)
		case "vars_files":
			switch x := l.value(file, v).(type) {
			case []any:
				p.VarsFiles = x
			case string:
				p.VarsFiles = []any{x}
			case nil:
			default:
				l.errs.add(file, v, "vars_files must be a list, not %s", typeName(x))
			}
		case "vars_prompt":
			p.VarsPrompt = l.varsPrompt(file, v)
		case "serial":
			p.Serial = l.value(file, v)
		case "max_fail_percentage":
			p.MaxFailPercentage = l.value(file, v)
		case "strategy":
			p.Strategy = l.str(file, e.key, v)
		case "order":
			p.Order = l.str(file, e.key, v)
		case "force_handlers":
			l.playLevel = true
			p.ForceHandlers = l.boolean(file, e.key, v)
			l.playLevel = false
		case "pre_tasks", "tasks", "post_tasks", "handlers":
			lists = append(lists, e)
			continue
		case "roles":
			roles = v
			continue
		default:
			if taskKeys[e.key] || blockKeys[e.key] {
				l.errs.add(file, e.k, "%q is not a valid attribute for a play (it belongs on a task or block)", e.key)
				continue
			}
			l.unknownKey(file, e, "play", playKeys)
		}
		l.checkTree(file, e.v, "")
	}
	if !hasHosts {
		l.errs.add(file, n, "the play has no hosts: a play needs hosts (or import_playbook)")
	}
	sc := &scope{play: p, pbdir: filepath.Dir(abs), file: abs, dir: filepath.Dir(abs), tags: p.Tags, stack: []string{abs},
		collections: p.Collections}
	if roles != nil {
		p.Roles = l.roleList(sc, roles)
	}
	for _, e := range lists {
		s := *sc
		s.handler = e.key == "handlers"
		tasks := l.taskList(&s, e.v, e.key)
		switch e.key {
		case "pre_tasks":
			p.PreTasks = tasks
		case "tasks":
			p.Tasks = tasks
		case "post_tasks":
			p.PostTasks = tasks
		case "handlers":
			p.Handlers = tasks
		}
	}
	return p
}

// importPlaybook expands "- import_playbook: file.yml" (also the legacy
// "- include: file.yml" at play level); it returns nil when item is not one.
func (l *loader) importPlaybook(abs string, item *yaml.Node, stack []string) []*Play {
	file := l.show(abs)
	var target *entry
	var rest []entry
	for _, e := range l.entries(file, item) {
		switch fqcn.Short(e.key) {
		case importPlaybook, oldInclude:
			e := e
			target = &e
		default:
			rest = append(rest, e)
		}
	}
	if target == nil {
		return nil
	}
	var kw Keywords
	for _, e := range rest {
		switch e.key {
		case "vars", "tags", "when", "name":
			if e.key != "name" {
				l.keyword(file, e, &kw)
			}
		default:
			l.errs.add(file, e.k, "%q is not a valid attribute for import_playbook", e.key)
		}
	}
	path := l.str(file, target.key, target.v)
	if isTemplate(path) {
		// Rendered now, as Ansible does, with the import's vars and the
		// extra vars (Options.Vars, winning).
		v, err := expr.Render(path, l.importScope(kw.Vars))
		if err != nil {
			l.errs.add(file, target.v, "import_playbook path %q: %v", path, err)
			return nil
		}
		if path = expr.Str(v); isTemplate(path) || path == "" {
			l.errs.add(file, target.v, "import_playbook path %q does not name a file", path)
			return nil
		}
	}
	target2 := path
	if p, ok := l.collectionPlaybook(path); ok {
		// ns.coll.name: the collection's playbooks/name.yml, looked for
		// first, as Ansible does.
		target2 = p
	} else if !filepath.IsAbs(target2) {
		target2 = filepath.Join(filepath.Dir(abs), path)
	}
	plays := l.playbookFile(filepath.Clean(target2), target.v, file, false, append(stack, abs))
	for _, p := range plays {
		// The import's vars, tags and when apply to every play it brings;
		// its vars win over the play's own, as in Ansible.
		if kw.Vars != nil {
			merged := pydict.NewBuilder(len(p.Vars) + len(kw.Vars))
			for _, k := range pydict.Keys(p.Vars) {
				merged.Set(k, p.Vars[k])
			}
			for _, k := range pydict.Keys(kw.Vars) {
				merged.Set(k, kw.Vars[k])
			}
			p.Vars = merged.Map()
		}
		p.Tags = mergeTags(kw.Tags, p.Tags)
		p.When = append(append([]string{}, kw.When...), p.When...)
		if len(kw.Tags) > 0 {
			for _, t := range walkAll(p) {
				t.EffectiveTags = mergeTags(kw.Tags, t.EffectiveTags)
			}
		}
	}
	return plays
}
