package provision_test

import (
	"testing"
)

// hostileExprs are ways a playbook builds a value out of what a host said:
// names, concatenation, hostvars, lookups, filters, tests, methods,
// statements, macros, dict keys, facts. The value is stored with
// set_fact, then read again; were it stored plain, reading it would render
// the payload inside.
var hostileExprsTable = []string{
	"{{ hostile[0] }}",
	"x{{ hostile[0] }}",
	"x{{ hostvars[inventory_hostname].hostile[0] }}",
	"x{{ hostvars[inventory_hostname]['hostile'] | join(',') }}",
	"x{{ hostvars | dict2items | map(attribute='value.hostile') | first | first }}",
	"{{ hostvars[inventory_hostname] }}",
	"{{ hostvars }}",
	"x{{ vars['hostile'][0] | default('') }}",
	"x{{ lookup('vars', 'hostile')[0] }}",
	"x{{ query('items', hostile[0]) | first }}",
	"{{ {'a': hostile[0]} | combine({'b': 1}) }}",
	"{{ [hostile[0]] | zip([1]) | list }}",
	"{{ hostile | map('upper') | list }}",
	"{{ hostile | select('match', '.*') | list }}",
	"x{{ hostile[0] | regex_replace('x', 'y') }}",
	"{{ hostile[0] | to_json | from_json }}",
	"x{{ hostile[0] | b64encode | b64decode }}",
	"x{{ '%s' % hostile[0] }}",
	"x{{ '{}'.format(hostile[0]) }}",
	"{{ hostile[0] ~ '' }}",
	"x{{ hostile[0] | string }}",
	"x{{ hostile[0] | replace('a', 'a') | trim | lower | upper | lower }}",
	"{{ dict(hostile | zip(hostile)) }}",
	"{{ dict(hostile | zip(hostile)) | dict2items }}",
	"{{ hostile | zip(hostile) | map('list') | list }}",
	"{% for x in hostile %}{{ x }}{% endfor %}",
	"{% set y = hostile[0] %}{{ y }}",
	"{% set ns = namespace(v='') %}{% set ns.v = hostile[0] %}{{ ns.v }}",
	"{% macro m(x) %}{{ x }}{% endmacro %}{{ m(hostile[0]) }}",
	"{{ hostile[0] if hostile else '' }}",
	"x{{ hostile[0].split(',') | first }}",
	"x{{ hostile[0].upper().lower() }}",
	"x{{ hostile[0] | indent(2) }}",
	"x{{ hostile[0] | urlencode | urldecode }}",
	"x{{ hostile[0] | quote }}",
	"x{{ [hostile[0]] | first }}",
	"x{{ hostile[0][0:] }}",
	"{{ (hostile[" + itoa(len(payloadForms)-1) + "] | from_json).keys() | list }}",
	"x{{ (hostile[" + itoa(len(payloadForms)-1) + "] | from_json).keys() | join(',') }}",
	"x{{ ansible_facts.hostname }}",
	"x{{ ansible_facts | dict2items | selectattr('key', 'equalto', 'hostname') | map(attribute='value') | first }}",
	"x{{ ansible_env.keys() | select('search', 'lookup') | first }}",
	"x{{ ansible_local.hostile.keys() | select('search', 'lookup') | first }}",
	"{{ hostile | to_nice_yaml | from_yaml }}",
	"x{{ hostile | to_nice_json }}",
	"{{ hostile | unique | sort | reverse | list }}",
	"{{ hostile | product(['a']) | map('join') | list }}",
	"{{ hostile | map('regex_search', '.*') | list }}",
	"{{ hostile | groupby('0') | map('first') | list }}",
	"{{ [{'n': hostile[0]}] | map(attribute='n') | list }}",
	"{{ [{'n': hostile[0]}] | items2dict(key_name='n', value_name='n') }}",
	"{{ hostile[0] is string }}{{ hostile[0] }}",
}

// TestHostileHostExpressions stores each hostileExprsTable value with
// set_fact, then reads it back (debug, a loop over it, a module
// argument): no payload is evaluated on the way.
func TestHostileHostExpressions(t *testing.T) {
	t.Parallel()
	h := newHostileHost(t)
	var tasks []any
	for i, e := range hostileExprsTable {
		name := "out" + itoa(i)
		tasks = append(tasks,
			map[string]any{"name": "expr " + itoa(i) + " store", "set_fact": map[string]any{name: e}, "ignore_errors": true},
			map[string]any{"name": "expr " + itoa(i) + " read", "debug": map[string]any{"msg": "{{ " + name + " | default('') }}"}, "ignore_errors": true},
			map[string]any{"name": "expr " + itoa(i) + " as an argument", "command": "echo {{ " + name + " | default('') }}", "ignore_errors": true},
		)
	}
	// A fact built up over a loop, one hostile item at a time.
	tasks = append(tasks,
		map[string]any{"name": "accumulate", "set_fact": map[string]any{"acc": "{{ acc | default([]) + [item] }}"}, "loop": "{{ hostile }}"},
		map[string]any{"name": "accumulated", "debug": map[string]any{"msg": "{{ acc }} {{ acc | join }}"}},
	)
	hr := runHostile(t, h, []any{hostilePlay(tasks...)}, map[string]string{})
	if hr.err != nil {
		t.Fatal(hr.err)
	}
	if !hr.sourcesHeld() {
		t.Fatalf("the sources did not deliver:\n%s", hr.out)
	}
	if h.marked() {
		t.Fatalf("a payload was evaluated on the controller:\n%s", hr.out)
	}
	if !hr.carried(h, "accumulated") {
		t.Fatalf("the accumulated fact does not show the payloads:\n%s", hr.out)
	}
}
