package main

import (
	"fmt"
	"strings"
)

// paths are the files and directories tasks work on, all below the work
// directory d that each tool gets as an extra variable. Each host has its
// own: hosts run at once, and two of them writing one file would race.
var paths = []string{
	"{{ d }}/f1-{{ inventory_hostname }}",
	"{{ d }}/f2-{{ inventory_hostname }}",
	"{{ d }}/dir1-{{ inventory_hostname }}",
	"{{ d }}/dir1-{{ inventory_hostname }}/f3",
}

// module draws a task's module and arguments, and the variable it
// registers ("" for none).
func (g *generator) module() (string, any, string) {
	reg := ""
	if g.chance(35) {
		g.nreg++
		reg = fmt.Sprintf("r%d", g.nreg)
	}
	switch k := g.r.Intn(100); {
	case k < 10 && g.inRole != nil && g.inRole.Template != "":
		return "template", g.template(), reg
	case k < 5 && g.opts.Vars && g.c.VarsFiles != nil:
		return "include_vars", g.pick([]string{"vf1.yml", "file=vf1.yml"}), reg
	case k < 14:
		return "set_fact", g.factArgs(), reg
	case k < 30:
		return "debug", g.debug(), reg
	case k < 38:
		return "assert", g.assert(), reg
	case k < 42:
		return "fail", M{{"msg", "failed {{ " + g.Expr(tStr, 1) + " }}"}}, reg
	case k < 56:
		name, args := g.command()
		return name, args, reg
	case k < 63:
		return "copy", g.options("copy", M{{"dest", g.pick(paths[:2])}, {"content", g.content()}}), reg
	case k < 72:
		return "file", g.options("file", M{{"path", g.pick(paths)}}), reg
	case k < 80:
		return "lineinfile", g.options("lineinfile", M{{"path", g.pick(paths)}, {"line", g.content()}}), reg
	case k < 88:
		return "stat", g.options("stat", M{{"path", g.pick(paths)}}), reg
	case k < 94:
		return "meta", g.pick([]string{"flush_handlers", "noop", "end_host", "clear_host_errors"}), ""
	default:
		return "command", M{{"cmd", "echo {{ " + g.Expr(tStr, 1) + " }}"}, {"chdir", "{{ d }}"}}, reg
	}
}

func (g *generator) factArgs() M {
	var m M
	if g.opts.Vars && g.chance(15) {
		// A play variable set again: set_fact's precedence.
		if sh := g.shadowVars(); sh != nil {
			m = append(m, sh[0])
		}
	}
	for i := 0; i < 1+g.r.Intn(2); i++ {
		t := typ(g.r.Intn(int(nTypes)))
		g.nfact++
		name := fmt.Sprintf("f%d", g.nfact)
		var v any = g.Template(t, 3)
		if g.chance(15) {
			v = g.value(t)
		}
		m = append(m, KV{name, v})
		defer func(name string, t typ) { g.vars = append(g.vars, variable{name, t, false}) }(name, t)
	}
	return m
}

func (g *generator) debug() any {
	switch g.r.Intn(4) {
	case 0:
		var c []variable
		for _, v := range g.vars {
			if !strings.Contains(v.name, "|") {
				c = append(c, v)
			}
		}
		if len(c) > 0 {
			return M{{"var", c[g.r.Intn(len(c))].name}}
		}
		return M{{"var", "nosuch"}}
	case 1:
		return M{{"var", g.Expr(typ(g.r.Intn(int(nTypes))), 2)}}
	case 2:
		return fmt.Sprintf("msg=%s", quote(g.Template(typ(g.r.Intn(int(nTypes))), 3)))
	}
	return M{{"msg", g.Template(typ(g.r.Intn(int(nTypes))), 3)}}
}

func (g *generator) assert() M {
	var that []any
	for i := 0; i < 1+g.r.Intn(3); i++ {
		that = append(that, g.Expr(tBool, 2))
	}
	m := M{{"that", that}}
	if len(that) == 1 && g.chance(30) {
		m = M{{"that", that[0]}}
	}
	if g.chance(30) {
		m = append(m, KV{"fail_msg", "bad {{ " + g.Expr(tStr, 1) + " }}"})
	}
	if g.chance(20) {
		m = append(m, KV{"success_msg", "good"})
	}
	if g.chance(20) {
		m = append(m, KV{"quiet", true})
	}
	return m
}

func (g *generator) command() (string, any) {
	if g.chance(40) {
		code := g.pick([]string{"0", "0", "0", "1", "2"})
		return "shell", fmt.Sprintf("echo {{ %s | quote }}; echo err >&2; exit %s", g.Expr(tStr, 1), code)
	}
	switch g.r.Intn(5) {
	case 0:
		return "command", "echo " + g.pick([]string{"hi", "a b", "'x  y'", "{{ " + g.Expr(tStr, 1) + " }}"})
	case 1:
		return "command", g.pick([]string{"true", "false"})
	case 2:
		return "command", M{{"argv", []any{"sh", "-c", "echo out; exit " + g.pick([]string{"0", "3"})}}}
	case 3:
		return "command", M{{"cmd", "cat " + g.pick(paths)}}
	}
	p := g.pick(paths)
	return "command", M{{"cmd", "echo made"}, {g.pick([]string{"creates", "removes"}), p}}
}

func (g *generator) content() string {
	switch g.r.Intn(4) {
	case 0:
		return "{{ " + g.Expr(tStr, 2) + " }}"
	case 1:
		return "line " + g.pick(words)
	case 2:
		return "a\nb\n"
	}
	return g.pick(words)
}

// options adds, to the required arguments m, random options of mod
// drawn from its recorded spec (those safeOptions allows).
func (g *generator) options(mod string, m M) M {
	for i := range m {
		m[i].K = g.specs.name(&g.exprGen, mod, m[i].K)
	}
	for _, opt := range safeOptions[mod] {
		if g.has(m, mod, opt) || !g.chance(30) {
			continue
		}
		var v any
		switch ch := g.specs.choices(mod, opt); {
		case len(ch) > 0:
			c := g.pick(ch)
			if c == "hard" || c == "link" {
				c = "touch"
			}
			v = c
		case opt == "mode" || opt == "directory_mode":
			v = g.mode()
		case opt == "regexp":
			v = g.pick([]string{"^line", "a", "^b$", "^(l)ine (.*)$"})
		case opt == "insertafter" || opt == "insertbefore":
			v = g.pick([]string{"EOF", "BOF", "^a", "^line"})
		case g.specs.typeOf(mod, opt) == "bool":
			v = Raw(g.pick([]string{"true", "false", "yes", "no"}))
		default:
			continue
		}
		m = append(m, KV{g.specs.name(&g.exprGen, mod, opt), v})
	}
	return m
}

// has tells whether m sets opt under its name or an alias.
func (g *generator) has(m M, mod, opt string) bool {
	names := append([]string{opt}, g.specs[mod].Options[opt].Aliases...)
	for _, kv := range m {
		for _, n := range names {
			if kv.K == n {
				return true
			}
		}
	}
	return false
}

func (g *generator) mode() any {
	switch g.r.Intn(5) {
	case 0:
		return Raw("0644")
	case 1:
		return "0600"
	case 2:
		return "u=rwx,g=rx,o="
	case 3:
		return Raw("0755")
	}
	return g.pick([]string{"644", "u+x", "0640", "a-w"})
}
