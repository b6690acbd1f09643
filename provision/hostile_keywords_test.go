package provision_test

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks"
)

// The keyword half of the hostile-host suite: every keyword of every level
// (task, block, role, play, loop_control), as the playbook loader lists
// them, given what the hostile host said. A keyword the loader refuses to
// take from a template is refused at load, which is as safe.

// structural keywords hold other content, not values.
var structural = map[string]bool{"block": true, "rescue": true, "always": true, "tasks": true,
	"pre_tasks": true, "post_tasks": true, "handlers": true, "roles": true}

// hostileValue is the value keyword k gets from expression e (a hostile
// string) and, for keywords that need one, what the level runs to use it.
func hostileValue(k, e string) any {
	switch k {
	case "vars":
		// Text built around the payload, and the payload through
		// hostvars, must stay marked too.
		return map[string]any{"v": e, "w": "x" + e + "{{ hostvars['evil'].hostile[0] }}"}
	case "environment":
		return map[string]any{"X": e}
	case "module_defaults":
		return map[string]any{"debug": map[string]any{"msg": e}, "command": map[string]any{"chdir": e}}
	case "args":
		return map[string]any{"msg": e}
	case "loop_control":
		return map[string]any{"label": e}
	case "vars_files", "collections", "notify", "tags":
		return []any{e}
	case "vars_prompt":
		return []any{map[string]any{"name": "v", "default": e, "private": false}}
	}
	return e
}

// hostileTaskKeyword is the tasks that give task keyword k each payload
// form: through a loop item, and, for conditions, also as a bare
// expression naming the item.
func hostileTaskKeyword(k string) []any {
	item := "{{ item }}"
	loop := "{{ hostile[:" + itoa(len(payloadForms)) + "] }}"
	var out []any
	add := func(name string, t map[string]any) {
		t["name"] = "kw " + k + " " + name
		if _, set := t["ignore_errors"]; !set && k != "ignore_errors" {
			t["ignore_errors"] = true
		}
		if _, set := t["loop"]; !set && k != "loop" {
			t["loop"] = loop
		}
		out = append(out, t)
	}
	mod := map[string]any{"debug": map[string]any{"msg": "{{ v | default(item) }} {{ w | default('') }}"}}
	switch k {
	case "loop":
		add("items", map[string]any{"loop": "{{ hostile }}", "debug": map[string]any{"msg": item}})
		return out
	case "action", "local_action":
		add("module", map[string]any{k: item})
		add("module and args", map[string]any{k: "debug " + item})
		return out
	case "args":
		add("dict", map[string]any{"action": "debug", "args": hostileValue(k, item)})
		add("template", map[string]any{"action": "debug", "args": item})
		return out
	case "when", "changed_when", "failed_when", "until":
		t := map[string]any{"command": "echo", k: "item"}
		add("bare", t)
	case "environment", "async", "poll", "become", "become_user", "become_method", "become_flags", "become_exe", "remote_user", "port", "connection", "timeout":
		mod = map[string]any{"command": "echo"}
	}
	t := map[string]any{k: hostileValue(k, item)}
	for m, a := range mod {
		t[m] = a
	}
	add("item", t)
	return out
}

// hostileIncludes are the dynamic includes, each naming what it includes
// by a payload.
func hostileIncludes() []any {
	loop := "{{ hostile[:" + itoa(len(payloadForms)) + "] }}"
	var out []any
	for _, t := range []map[string]any{
		{"include_tasks": "{{ item }}"},
		{"include_tasks": map[string]any{"file": "{{ item }}"}},
		{"include_role": map[string]any{"name": "{{ item }}"}},
		{"include_role": map[string]any{"name": "r", "tasks_from": "{{ item }}"}},
		{"include_vars": "{{ item }}"},
		{"include_tasks": "inc.yml", "vars": hostileValue("vars", "{{ item }}")},
		{"include_role": map[string]any{"name": "r"}, "vars": hostileValue("vars", "{{ item }}")},
	} {
		t["loop"], t["ignore_errors"] = loop, true
		out = append(out, t)
	}
	return out
}

// hostileFiles are the files the keyword playbooks include: a task file and
// a role, each showing the variable v.
var hostileFiles = map[string]string{
	"inc.yml":                "- debug: msg=\"{{ v | default('none') }} {{ w | default('') }}\"\n",
	"roles/r/tasks/main.yml": "- debug: msg=\"{{ v | default('none') }} {{ w | default('') }}\"\n",
}

// hostileLevelPlays are the plays that give keyword k of level (play,
// block, role) each payload form: those levels cannot loop, so there is
// one play, block or role entry per form, reading the hostile host's
// text through hostvars.
func hostileLevelPlays(level, k string) []any {
	var plays []any
	var entries []any
	for i := range payloadForms {
		e := "{{ hostvars['evil'].hostile[" + itoa(i) + "] }}"
		switch level {
		case "play":
			p := map[string]any{"hosts": "evil", "gather_facts": false, "name": "kw " + k + " " + itoa(i),
				"tasks": []any{map[string]any{"debug": map[string]any{"msg": "{{ v | default('in play') }} {{ w | default('') }}"}}}}
			p[k] = hostileValue(k, e)
			plays = append(plays, p)
		case "block":
			b := map[string]any{"block": []any{map[string]any{"debug": map[string]any{"msg": "{{ v | default('in block') }} {{ w | default('') }}"}}},
				"ignore_errors": true}
			if k == "ignore_errors" {
				delete(b, "ignore_errors")
			}
			b[k] = hostileValue(k, e)
			entries = append(entries, b)
		case "role":
			r := map[string]any{"role": "r"}
			r[k] = hostileValue(k, e)
			entries = append(entries, r)
		}
	}
	switch level {
	case "block":
		plays = append(plays, map[string]any{"hosts": "evil", "gather_facts": false, "tasks": entries})
	case "role":
		plays = append(plays, map[string]any{"hosts": "evil", "gather_facts": false, "roles": entries})
	}
	return plays
}

// TestHostileHostEveryKeyword gives every keyword of every level what the
// hostile host said: nothing it said is ever evaluated.
func TestHostileHostEveryKeyword(t *testing.T) {
	t.Parallel()
	type tc struct {
		name  string
		plays func() []any
	}
	var cases []tc
	for _, k := range playbooks.KeywordNames("task") {
		if structural[k] {
			continue
		}
		cases = append(cases, tc{"task/" + k, func() []any { return []any{hostilePlay(hostileTaskKeyword(k)...)} }})
	}
	for _, k := range playbooks.KeywordNames("loop_control") {
		cases = append(cases, tc{"loop_control/" + k, func() []any {
			return []any{hostilePlay(map[string]any{"name": "kw loop_control " + k, "debug": map[string]any{"msg": "x"},
				"loop": "{{ hostile }}", "loop_control": map[string]any{k: "{{ item }}"}, "ignore_errors": true})}
		}})
	}
	cases = append(cases, tc{"includes", func() []any { return []any{hostilePlay(hostileIncludes()...)} }})
	for _, level := range []string{"play", "block", "role"} {
		for _, k := range playbooks.KeywordNames(level) {
			if structural[k] || (level == "role" && k == "role") {
				continue
			}
			cases = append(cases, tc{level + "/" + k, func() []any {
				return append([]any{hostilePlay()}, hostileLevelPlays(level, k)...)
			}})
		}
	}
	if len(cases) < 80 {
		t.Fatalf("only %d keyword cases: the loader's keyword lists are not what the suite expects", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHostileHost(t)
			files := map[string]string{}
			for k, v := range hostileFiles {
				files[k] = v
			}
			hr := runHostile(t, h, c.plays(), files)
			if hr.err != nil {
				t.Logf("refused at load: %v", hr.err)
			} else if !hr.sourcesHeld() {
				t.Fatalf("the sources did not deliver:\n%s", hr.out)
			}
			if h.marked() {
				t.Fatalf("a payload was evaluated on the controller:\n%s", hr.out)
			}
			if hr.err == nil && strings.Contains(hr.out, "PANIC") {
				t.Fatalf("%s", hr.out)
			}
		})
	}
}
