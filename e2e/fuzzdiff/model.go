package main

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// KV is one key of an ordered mapping.
type KV struct {
	K string
	V any
}

// M is an ordered mapping: it is written in the order given, so a case's
// YAML is the same bytes for the same seed.
type M []KV

// Raw is a scalar written verbatim and unquoted (0644, yes, a bare number),
// so the loaders' own reading of YAML 1.1 scalars is exercised.
type Raw string

// Task is one task or block. A block has Block set (and maybe Rescue and
// Always); its Fields are its keywords. A task's Fields hold its name,
// its module with arguments, and its keywords, in the order written.
type Task struct {
	Fields  M
	IsBlock bool
	Block   []*Task
	Rescue  []*Task
	Always  []*Task
}

// File is a task file that the playbook includes or imports.
type File struct {
	Name  string
	Tasks []*Task
}

// Case is one generated playbook with everything it needs: its single
// play, the task files it includes, its inventory and the extra arguments
// both tools get.
type Case struct {
	Seed     int64
	Hosts    []string
	HostVars map[string]M
	Vars     M
	Tasks    []*Task
	Handlers []*Task
	Files    []*File
	Args     []string
	// Roles are the case's roles; PlayRoles the play's roles: section.
	Roles     []*Role
	PlayRoles []any
	// VarFiles are variable files by path (group_vars/all.yml, vf1.yml);
	// VarsFiles the play's vars_files; Groups adds the inventory's
	// groups ga and gb (hosts by grp), GroupVars its [ga:vars].
	VarFiles  map[string]M
	VarsFiles []string
	Groups    bool
	GroupVars M
}

// clone copies the case deeply enough that the minimiser can change the
// copy's task lists and fields without touching the original.
func (c *Case) clone() *Case {
	n := *c
	n.Hosts = append([]string(nil), c.Hosts...)
	n.Vars = append(M(nil), c.Vars...)
	n.Args = append([]string(nil), c.Args...)
	n.Tasks = cloneTasks(c.Tasks)
	n.Handlers = cloneTasks(c.Handlers)
	n.Files = nil
	for _, f := range c.Files {
		n.Files = append(n.Files, &File{Name: f.Name, Tasks: cloneTasks(f.Tasks)})
	}
	n.VarFiles = map[string]M{}
	for p, m := range c.VarFiles {
		n.VarFiles[p] = m
	}
	n.Roles = nil
	for _, r := range c.Roles {
		n.Roles = append(n.Roles, r.clone())
	}
	return &n
}

func cloneTasks(ts []*Task) []*Task {
	if ts == nil {
		return nil
	}
	out := make([]*Task, len(ts))
	for i, t := range ts {
		n := *t
		n.Fields = append(M(nil), t.Fields...)
		n.Block = cloneTasks(t.Block)
		n.Rescue = cloneTasks(t.Rescue)
		n.Always = cloneTasks(t.Always)
		out[i] = &n
	}
	return out
}

// Inventory is the case's INI inventory: every host local.
func (c *Case) Inventory() string {
	var b strings.Builder
	b.WriteString("[all]\n")
	for _, h := range c.Hosts {
		fmt.Fprintf(&b, "%s ansible_connection=local ansible_python_interpreter=/usr/bin/python3", h)
		for _, kv := range c.HostVars[h] {
			fmt.Fprintf(&b, " %s=%v", kv.K, kv.V)
		}
		b.WriteString("\n")
	}
	if c.Groups {
		b.WriteString(c.groupSections())
	}
	return b.String()
}

// Playbook is the YAML of the case's play.
func (c *Case) Playbook() string {
	play := M{{"name", "fuzz"}, {"hosts", "all"}, {"gather_facts", false}}
	if len(c.Vars) > 0 {
		play = append(play, KV{"vars", c.Vars})
	}
	if len(c.VarsFiles) > 0 {
		play = append(play, KV{"vars_files", c.VarsFiles})
	}
	if len(c.PlayRoles) > 0 {
		play = append(play, KV{"roles", c.PlayRoles})
	}
	play = append(play, KV{"tasks", c.Tasks})
	if len(c.Handlers) > 0 {
		play = append(play, KV{"handlers", c.Handlers})
	}
	return render([]any{play})
}

// FileYAML is the YAML of one of the case's task files.
func (f *File) YAML() string { return render(f.Tasks) }

// Files returns every file of the case by name: the playbook (site.yml),
// the inventory (inventory) and the task files.
func (c *Case) Render() map[string]string {
	out := map[string]string{"site.yml": c.Playbook(), "inventory": c.Inventory()}
	for _, f := range c.Files {
		out[f.Name] = f.YAML()
	}
	for _, r := range c.Roles {
		for name, text := range r.files() {
			out[name] = text
		}
	}
	for _, p := range c.varFileNames() {
		out[p] = render(c.VarFiles[p])
	}
	return out
}

// Text is every file of the case, one after another with a header each,
// for reports and for comparing two cases.
func (c *Case) Text() string {
	files := c.Render()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	if len(c.Args) > 0 {
		fmt.Fprintf(&b, "# args: %s\n", strings.Join(c.Args, " "))
	}
	for _, n := range names {
		fmt.Fprintf(&b, "# ---- %s\n%s", n, files[n])
	}
	return b.String()
}

// size counts the tasks and fields of the case: the minimiser keeps a
// change only when it makes this smaller.
func (c *Case) size() int {
	n := len(c.Vars) + len(c.Hosts) + len(c.Args)
	n += sizeTasks(c.Tasks) + sizeTasks(c.Handlers)
	for _, f := range c.Files {
		n += 1 + sizeTasks(f.Tasks)
	}
	for _, r := range c.Roles {
		n += 1 + sizeTasks(r.Tasks) + sizeTasks(r.Handlers)
	}
	for _, m := range c.VarFiles {
		n += 1 + len(m)
	}
	return n + len(c.PlayRoles) + len(c.VarsFiles) + len(c.GroupVars)
}

func sizeTasks(ts []*Task) int {
	n := 0
	for _, t := range ts {
		n += 1 + len(t.Fields) + sizeTasks(t.Block) + sizeTasks(t.Rescue) + sizeTasks(t.Always)
		for _, kv := range t.Fields {
			n += sizeValue(kv.V)
		}
	}
	return n
}

func sizeValue(v any) int {
	switch v := v.(type) {
	case M:
		n := len(v)
		for _, kv := range v {
			n += sizeValue(kv.V)
		}
		return n
	case []any:
		n := len(v)
		for _, e := range v {
			n += sizeValue(e)
		}
		return n
	case string:
		return len(v) / 16
	}
	return 0
}

func render(v any) string {
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{node(v)}}
	out, err := yaml.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return "---\n" + string(out)
}

// node turns a case value into YAML: M and tasks keep their order.
func node(v any) *yaml.Node {
	switch v := v.(type) {
	case M:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, kv := range v {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: kv.K}, node(kv.V))
		}
		return n
	case []*Task:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, t := range v {
			n.Content = append(n.Content, taskNode(t))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range v {
			n.Content = append(n.Content, node(e))
		}
		return n
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range v {
			n.Content = append(n.Content, node(e))
		}
		return n
	case Raw:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: string(v)}
	case string:
		n := &yaml.Node{}
		n.SetString(v)
		if strings.Contains(v, "{{") || strings.Contains(v, "{%") {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n
	default:
		n := &yaml.Node{}
		if err := n.Encode(v); err != nil {
			panic(err)
		}
		return n
	}
}

func taskNode(t *Task) *yaml.Node {
	f := t.Fields
	if t.IsBlock {
		f = append(M(nil), f...)
		f = append(f, KV{"block", t.Block})
		if len(t.Rescue) > 0 {
			f = append(f, KV{"rescue", t.Rescue})
		}
		if len(t.Always) > 0 {
			f = append(f, KV{"always", t.Always})
		}
	}
	return node(f)
}
