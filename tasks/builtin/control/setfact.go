package control

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
)

// setFactModule returns its arguments as facts: Data["ansible_facts"],
// which the engine stores as host variables; cacheable ones also join
// ansible_facts and the fact cache.
type setFactModule struct{}

var _ tasks.Module = (*setFactModule)(nil)

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Run validates the names and converts "yes"/"no"/"true"/"false" strings
// to booleans, as Ansible does without jinja2_native.
func (setFactModule) Run(_ context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	// The facts keep the order of the arguments, as Ansible's dict does.
	facts := pydict.NewBuilder(len(args))
	cacheable := false
	native := env != nil && env.Jinja2Native
	for _, k := range pydict.Keys(args) {
		v := args[k]
		if k == "cacheable" {
			b, err := tasks.ParseBool(v)
			if err != nil {
				return tasks.Result{}, fmt.Errorf("argument 'cacheable': %v", err)
			}
			cacheable = b
			continue
		}
		if !identifier.MatchString(k) {
			return tasks.Result{Failed: true, Data: map[string]any{}, Msg: fmt.Sprintf("The variable name '%s' is not valid. Variables must start with a letter or underscore character, and contain only letters, numbers and underscores.", k)}, nil
		}
		if s, ok := tasks.Text(v); ok && !native {
			switch strings.ToLower(s) {
			case "true", "yes":
				v = true
			case "false", "no":
				v = false
			}
		}
		facts.Set(k, v)
	}
	if facts.Len() == 0 {
		return tasks.Result{Failed: true, Data: map[string]any{}, Msg: "No key/value pairs provided, at least one is required for this action to succeed"}, nil
	}
	// cacheable is the engine's to read (Traits.CacheableArg): the facts
	// join ansible_facts and the fact cache.
	_ = cacheable
	return tasks.Result{Data: map[string]any{"ansible_facts": facts.Map()}}, nil
}

func (setFactModule) Spec() *tasks.Spec { return setFactSpec }

// The modules below read their arguments by hand (any key is a variable);
// these Specs document them.
var (
	setFactSpec = &tasks.Spec{Module: "set_fact", Params: []tasks.Param{{Name: "cacheable", Kind: tasks.Bool, Default: false}},
		Other: "every other key is a fact to set on the host"}
	addHostSpec = &tasks.Spec{Module: "add_host", Params: []tasks.Param{
		{Name: "name", Aliases: []string{"host", "hostname"}, Required: true},
		{Name: "groups", Kind: tasks.List, Aliases: []string{"group", "groupname"}},
	}, Other: "every other key is a variable of the new host (ansible_host, ansible_port, ...)"}
	groupBySpec = &tasks.Spec{Module: "group_by", Params: []tasks.Param{
		{Name: "key", Required: true},
		{Name: "parents", Kind: tasks.List, Default: []any{"all"}},
	}}
	setStatsSpec = &tasks.Spec{Module: "set_stats", Params: []tasks.Param{
		{Name: "data", Kind: tasks.Dict, Required: true},
		{Name: "per_host", Kind: tasks.Bool, Default: false},
		{Name: "aggregate", Kind: tasks.Bool, Default: true},
	}}
)
