package main

import (
	"fmt"
	"sort"
	"strings"
)

// varLayers gives the case variables from every place Ansible reads
// them besides the play: group_vars and host_vars files, the
// inventory's group sections and [group:vars], and the play's
// vars_files. Each either gives a play variable another value of its
// type (precedence) or defines a name of its own; a name only some
// hosts have is read through default.
func (g *generator) varLayers() {
	c := g.c
	c.Groups = g.chance(70)
	c.VarFiles = map[string]M{}
	file := func(path, prefix string, n int, sure bool) {
		var m M
		for i := 0; i < n; i++ {
			k, v, t := g.varValue(prefix)
			if m.has(k) {
				continue
			}
			m = append(m, KV{k, v})
			g.vars = append(g.vars, variable{k, t, sure && !strings.HasPrefix(k, "v")})
		}
		c.VarFiles[path] = m
	}
	if g.chance(60) {
		file("group_vars/all.yml", "gall", 1+g.r.Intn(2), true)
	}
	if c.Groups && g.chance(50) {
		grp := g.pick([]string{"ga", "gb"})
		file("group_vars/"+grp+".yml", grp, 1, false)
	}
	if g.chance(40) {
		file("host_vars/"+c.Hosts[0]+".yml", "hv", 1, false)
	}
	if g.chance(40) {
		file("vf1.yml", "vf", 1+g.r.Intn(2), true)
		c.VarsFiles = []string{"vf1.yml"}
	}
	if c.Groups && g.chance(40) {
		k, v, t := g.varValue("gi")
		if t == tInt || t == tStr {
			c.GroupVars = M{{k, v}}
			g.vars = append(g.vars, variable{k, t, false})
		}
	}
}

// varValue is a variable for a layer: a play variable's name with
// another value of its type, or a new name (prefix, a number, and the
// type's number last).
func (g *generator) varValue(prefix string) (string, any, typ) {
	var play []variable
	for _, v := range g.vars {
		if strings.HasPrefix(v.name, "v") && len(v.name) == 2 {
			play = append(play, v)
		}
	}
	if len(play) > 0 && g.chance(50) {
		v := play[g.r.Intn(len(play))]
		return v.name, g.value(v.t), v.t
	}
	t := typ(g.r.Intn(int(nTypes)))
	return fmt.Sprintf("%s%d%d", prefix, g.r.Intn(3), t), g.value(t), t
}

// shadowVars are a task's or block's vars: a play variable with another
// value of its type (nil when there is none).
func (g *generator) shadowVars() M {
	var play []variable
	for _, v := range g.vars {
		if strings.HasPrefix(v.name, "v") && len(v.name) == 2 {
			play = append(play, v)
		}
	}
	if len(play) == 0 {
		return nil
	}
	v := play[g.r.Intn(len(play))]
	return M{{v.name, g.value(v.t)}}
}

func (m M) has(k string) bool {
	for _, kv := range m {
		if kv.K == k {
			return true
		}
	}
	return false
}

// groupSections are the inventory's group sections: hosts by their grp,
// and the groups' vars.
func (c *Case) groupSections() string {
	var b strings.Builder
	for _, grp := range []string{"a", "b"} {
		fmt.Fprintf(&b, "[g%s]\n", grp)
		for _, h := range c.Hosts {
			for _, kv := range c.HostVars[h] {
				if kv.K == "grp" && kv.V == grp {
					fmt.Fprintf(&b, "%s\n", h)
				}
			}
		}
	}
	if len(c.GroupVars) > 0 {
		b.WriteString("[ga:vars]\n")
		for _, kv := range c.GroupVars {
			fmt.Fprintf(&b, "%s=%v\n", kv.K, kv.V)
		}
	}
	return b.String()
}

// varFileNames are the case's variable files' paths, sorted.
func (c *Case) varFileNames() []string {
	out := make([]string, 0, len(c.VarFiles))
	for p := range c.VarFiles {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
