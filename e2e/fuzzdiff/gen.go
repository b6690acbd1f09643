package main

import (
	"fmt"
	"math/rand"
)

// generator builds one random case from a seed. Everything it draws comes
// from its own rand.Rand, so a seed always gives the same case.
type generator struct {
	exprGen
	specs    Specs
	c        *Case
	depth    int // nesting: blocks and included files
	ntasks   int // tasks made so far, bounded by maxTasks
	nfact    int
	nreg     int
	nfile    int
	handlers []string
	opts     Options
	inRole   *Role // the role whose tasks are being made
	// roleHandlers are the roles' handlers tasks outside them notify.
	roleHandlers []string
}

const maxTasks = 14

// Generate makes the case of seed with the base options.
func Generate(seed int64, specs Specs) *Case { return GenerateWith(seed, specs, Options{}) }

// GenerateWith makes the case of seed with the options opts.
func GenerateWith(seed int64, specs Specs, opts Options) *Case {
	g := &generator{specs: specs, opts: opts}
	g.r = rand.New(rand.NewSource(seed))
	c := &Case{Seed: seed, HostVars: map[string]M{}}
	g.c = c
	nh := 1 + g.r.Intn(3)
	for i := 1; i <= nh; i++ {
		h := fmt.Sprintf("h%d", i)
		c.Hosts = append(c.Hosts, h)
		c.HostVars[h] = M{{"n", i}, {"grp", g.pick([]string{"a", "b"})}}
	}
	g.vars = []variable{{"n", tInt, true}, {"grp", tStr, true}, {"inventory_hostname", tStr, true}}
	for i, t := range []typ{tInt, tStr, tBool, tLI, tLS, tDict, tStr} {
		if g.chance(20) {
			continue
		}
		name := fmt.Sprintf("v%d", i)
		c.Vars = append(c.Vars, KV{name, g.value(t)})
		g.vars = append(g.vars, variable{name, t, true})
	}
	if g.chance(40) {
		v := fmt.Sprintf("t%d", g.r.Intn(100))
		c.Vars = append(c.Vars, KV{"tmpl", "{{ " + g.Expr(tStr, 2) + " }}-" + v})
		g.vars = append(g.vars, variable{"tmpl", tStr, true})
	}
	for i := 0; i < g.r.Intn(3); i++ {
		name := fmt.Sprintf("hd%d", i)
		g.handlers = append(g.handlers, name)
	}
	if opts.Vars {
		g.varLayers()
	}
	if opts.Roles {
		g.roles()
	}
	c.Tasks = g.tasks(2 + g.r.Intn(6))
	for _, h := range g.handlers {
		c.Handlers = append(c.Handlers, g.handler(h))
	}
	switch g.r.Intn(20) {
	case 0:
		c.Args = []string{"--tags", g.pick([]string{"t1", "t2", "always", "t1,t2"})}
	case 1:
		c.Args = []string{"--skip-tags", g.pick([]string{"t1", "t2"})}
	case 2:
		c.Args = []string{"-e", fmt.Sprintf("v0=%d", g.r.Intn(5))}
	}
	return c
}

// value is a YAML value of type t for play vars.
func (g *generator) value(t typ) any {
	switch t {
	case tInt:
		if g.chance(20) {
			return Raw(g.pick([]string{"010", "0x1f", "1_000", "+3", "0o7"}))
		}
		return g.r.Intn(24) - 4
	case tStr:
		if g.chance(20) {
			return Raw(g.pick([]string{"yes", "no", "on", "~", "1.0", "null", "true", "0b11"}))
		}
		return g.pick(words)
	case tBool:
		return Raw(g.pick([]string{"true", "false", "yes", "no", "True", "off"}))
	case tLI:
		var l []any
		for i := 0; i < g.r.Intn(5); i++ {
			l = append(l, g.r.Intn(12)-2)
		}
		if l == nil {
			l = []any{}
		}
		return l
	case tLS:
		var l []any
		for i := 0; i < g.r.Intn(5); i++ {
			l = append(l, g.pick(words))
		}
		if l == nil {
			l = []any{}
		}
		return l
	case tDict:
		m := M{}
		seen := map[string]bool{}
		for i := 0; i < g.r.Intn(4); i++ {
			k := g.pick([]string{"a", "b", "k", "z", "key"})
			if seen[k] {
				continue
			}
			seen[k] = true
			if g.chance(50) {
				m = append(m, KV{k, g.r.Intn(10)})
			} else {
				m = append(m, KV{k, g.pick(words)})
			}
		}
		return m
	}
	panic("type")
}

// tasks makes up to n tasks (fewer when the case's budget runs out).
func (g *generator) tasks(n int) []*Task {
	var out []*Task
	for i := 0; i < n && g.ntasks < maxTasks; i++ {
		g.ntasks++
		out = append(out, g.task())
	}
	return out
}

// task makes one task of a random kind with random keywords.
func (g *generator) task() *Task {
	k := g.r.Intn(100)
	switch {
	case k < 9 && g.depth < 2:
		return g.block()
	case k < 14 && g.depth < 2:
		return g.include()
	case k < 20 && g.opts.Roles && g.inRole == nil && g.depth < 2:
		return g.roleTask()
	}
	t := &Task{}
	if g.chance(60) {
		t.Fields = append(t.Fields, KV{"name", g.taskName()})
	}
	// A loop's item is known while the task's own fields are made.
	saved := len(g.vars)
	var loop M
	if g.chance(25) {
		loop = g.loop()
	}
	var vars M
	if g.opts.Vars && g.chance(12) {
		vars = g.shadowVars()
	}
	mod, args, reg := g.module()
	t.Fields = append(t.Fields, KV{mod, args})
	if vars != nil {
		t.Fields = append(t.Fields, KV{"vars", vars})
	}
	t.Fields = append(t.Fields, loop...)
	t.Fields = append(t.Fields, g.keywords(reg, loop != nil)...)
	g.vars = g.vars[:saved]
	g.registered(t, reg, loop != nil)
	return t
}

func (g *generator) taskName() string {
	if g.chance(20) {
		return "task {{ " + g.Expr(tStr, 1) + " }}"
	}
	return fmt.Sprintf("task %d", g.ntasks)
}

// loop is the loop keywords of a task: loop, with_items or with_dict,
// and maybe loop_control; it pushes the loop variable.
func (g *generator) loop() M {
	var m M
	var el typ
	lv := "item"
	var lc M
	if g.chance(40) {
		if g.chance(40) {
			lv = "it"
			lc = append(lc, KV{"loop_var", lv})
		}
		if g.chance(40) {
			lc = append(lc, KV{"index_var", "idx"})
			g.vars = append(g.vars, variable{"idx", tInt, true})
		}
		if g.chance(30) {
			lc = append(lc, KV{"extended", true})
			g.vars = append(g.vars, variable{"ansible_loop.index", tInt, true}, variable{"ansible_loop.last", tBool, true})
		}
	}
	switch g.r.Intn(4) {
	case 0:
		el = g.pickType(tInt, tStr)
		lt := tLI
		if el == tStr {
			lt = tLS
		}
		m = M{{"loop", g.Template(lt, 2)}}
	case 1:
		el = tStr
		var l []any
		for i := 0; i < 1+g.r.Intn(3); i++ {
			l = append(l, g.pick(words))
		}
		m = M{{"with_items", l}}
	case 2:
		el = tInt
		m = M{{"loop", []any{1, 2, 3}[:1+g.r.Intn(3)]}}
	case 3:
		m = M{{"with_dict", g.Template(tDict, 1)}}
		g.vars = append(g.vars, variable{lv + ".key", tStr, true})
		el = -1
	}
	if el >= 0 {
		g.vars = append(g.vars, variable{lv, el, true})
	}
	if g.chance(30) {
		lc = append(lc, KV{"label", "{{ " + lv + " }}"})
	}
	if lc != nil {
		m = append(m, KV{"loop_control", lc})
	}
	return m
}

// keywords are a task's conditionals and other keywords. reg is the
// variable the task registers ("" for none).
func (g *generator) keywords(reg string, looped bool) M {
	var m M
	if g.chance(30) {
		m = append(m, KV{"when", g.Expr(tBool, 2)})
	}
	if reg != "" {
		m = append(m, KV{"register", reg})
	}
	if g.chance(12) {
		m = append(m, KV{"changed_when", g.Expr(tBool, 1)})
	}
	if g.chance(12) {
		m = append(m, KV{"failed_when", g.Expr(tBool, 1)})
	}
	if g.chance(15) {
		m = append(m, KV{"ignore_errors", Raw(g.pick([]string{"true", "yes", "{{ " + g.Expr(tBool, 1) + " }}"}))})
	}
	if g.chance(8) {
		m = append(m, KV{"run_once", true})
	}
	if g.chance(15) {
		m = append(m, KV{"tags", g.pick([]string{"t1", "t2", "always", "never"})})
	}
	if len(g.handlers) > 0 && g.chance(25) {
		m = append(m, KV{"notify", g.pick(g.handlers)})
	}
	return m
}

// registered makes the variable a task registered known to later tasks,
// with the fields its module returns.
func (g *generator) registered(t *Task, reg string, looped bool) {
	if reg == "" {
		return
	}
	g.vars = append(g.vars,
		variable{reg + ".changed", tBool, false},
		variable{reg + ".failed", tBool, false})
	if looped {
		g.vars = append(g.vars, variable{reg + ".results | map(attribute='changed') | list | length", tInt, false})
		return
	}
	for _, kv := range t.Fields {
		switch kv.K {
		case "command", "shell":
			g.vars = append(g.vars, variable{reg + ".rc", tInt, false}, variable{reg + ".stdout", tStr, false}, variable{reg + ".stdout_lines", tLS, false})
		case "stat":
			g.vars = append(g.vars, variable{reg + ".stat.exists", tBool, false})
		}
	}
}

// block is a block with maybe a rescue and an always section.
func (g *generator) block() *Task {
	g.depth++
	defer func() { g.depth-- }()
	t := &Task{IsBlock: true}
	if g.chance(40) {
		t.Fields = append(t.Fields, KV{"name", fmt.Sprintf("block %d", g.ntasks)})
	}
	if g.opts.Vars && g.chance(20) {
		if m := g.shadowVars(); m != nil {
			t.Fields = append(t.Fields, KV{"vars", m})
		}
	}
	t.Block = g.tasks(1 + g.r.Intn(3))
	if g.chance(60) {
		t.Rescue = g.tasks(1 + g.r.Intn(2))
	}
	if g.chance(40) {
		t.Always = g.tasks(1 + g.r.Intn(2))
	}
	if g.chance(25) {
		t.Fields = append(t.Fields, KV{"when", g.Expr(tBool, 1)})
	}
	if g.chance(10) {
		t.Fields = append(t.Fields, KV{"ignore_errors", true})
	}
	if g.chance(10) {
		t.Fields = append(t.Fields, KV{"tags", g.pick([]string{"t1", "t2"})})
	}
	return t
}

// include is an include_tasks or import_tasks of a new task file.
func (g *generator) include() *Task {
	g.depth++
	defer func() { g.depth-- }()
	g.nfile++
	f := &File{Name: fmt.Sprintf("tasks%d.yml", g.nfile)}
	t := &Task{}
	dynamic := g.chance(60)
	saved := len(g.vars)
	var loop M
	if dynamic && g.chance(40) {
		loop = g.loop()
	}
	f.Tasks = g.tasks(1 + g.r.Intn(3))
	g.vars = g.vars[:saved]
	g.c.Files = append(g.c.Files, f)
	if dynamic {
		t.Fields = M{{"include_tasks", f.Name}}
		t.Fields = append(t.Fields, loop...)
		if g.opts.Vars && g.chance(25) {
			if m := g.shadowVars(); m != nil {
				t.Fields = append(t.Fields, KV{"vars", m})
			}
		}
	} else {
		t.Fields = M{{"import_tasks", f.Name}}
	}
	if g.chance(30) {
		t.Fields = append(t.Fields, KV{"when", g.Expr(tBool, 1)})
	}
	return t
}

// handler is a handler named name.
func (g *generator) handler(name string) *Task {
	var mod KV
	switch g.r.Intn(3) {
	case 0:
		mod = KV{"debug", M{{"msg", "handler " + name + " {{ " + g.Expr(tStr, 1) + " }}"}}}
	case 1:
		mod = KV{"command", "echo " + name}
	case 2:
		mod = KV{"set_fact", M{{"from_" + name, "{{ " + g.Expr(tInt, 1) + " }}"}}}
	}
	return &Task{Fields: M{{"name", name}, mod}}
}
