package control

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
)

// addHostModule describes a host to add to the run's in-memory inventory
// (Data["add_host"]); the engine adds it, as Ansible's strategy does, and
// decides whether that changed anything. The engine runs it once per task
// (or once per loop item), not once per host.
type addHostModule struct{}

// groupByModule names a group to put the host in (Data["add_group"]),
// created under parents when missing; the engine applies it.
type groupByModule struct{}

var (
	_ tasks.Module = (*addHostModule)(nil)
	_ tasks.Module = (*groupByModule)(nil)
)

// Run validates the arguments and returns the host's name, groups and
// variables (every argument that is not a name or group). Names and
// values keep their marks: a host added under a name that came from a
// host is named by data, never by a template.
func (addHostModule) Run(_ context.Context, _ *tasks.Env, args tasks.Args) (tasks.Result, error) {
	// Free-form arguments ("add_host: '{{ host }}'") must render to a
	// dict, which the other arguments update, as Ansible's action does.
	all := pydict.NewBuilder(len(args))
	if raw, ok := args["_raw_params"]; ok {
		m, isMap := raw.(map[string]any)
		if !isMap {
			return tasks.Result{}, errors.New("Invalid raw parameters passed, requires a dictonary/mapping got a  " + pyClass(raw))
		}
		for _, k := range pydict.Keys(m) {
			all.Set(k, m[k])
		}
	}
	for _, k := range pydict.Keys(args) {
		if k != "_raw_params" {
			all.Set(k, args[k])
		}
	}
	args = all.Map()
	name := firstArg(args, "name", "hostname", "host")
	if name == nil {
		// AnsibleActionFail, as the other refusals of add_host.
		return tasks.Result{}, errors.New("name, host or hostname needs to be provided")
	}
	hostName := tasks.ToText(name)
	vars := pydict.NewBuilder(len(args))
	if h, port, ok := hostPort(hostName); ok {
		hostName = h
		vars.Set("ansible_ssh_port", port)
	}
	groups, err := addHostGroups(firstArg(args, "groupname", "groups", "group"))
	if err != nil {
		return tasks.Result{}, err
	}
	for _, k := range pydict.Keys(args) {
		switch k {
		case "name", "hostname", "groupname", "groups":
		default:
			vars.Set(k, args[k])
		}
	}
	return tasks.Result{Data: map[string]any{"add_host": map[string]any{
		"host_name": tasks.Keep(name, hostName), "groups": groups, "host_vars": vars.Map(),
	}}}, nil
}

// addHostGroups reads add_host's groups as Ansible does: nothing when
// empty, a list as it is, a string split on commas; each name stripped
// (its mark kept), a name skipped when the name as written is one
// already taken (so " a" after "a" is kept twice, as in Ansible), and an
// empty name skipped (Ansible stops the whole run on it).
func addHostGroups(g any) ([]any, error) {
	var names []any
	switch v := g.(type) {
	case nil:
	case []any:
		names = v
	default:
		text, isText := tasks.Text(g)
		if !isText {
			if pyTruthy(g) {
				return nil, fmt.Errorf("Groups must be specified as a list.")
			}
			break
		}
		for _, s := range strings.Split(text, ",") {
			names = append(names, tasks.Keep(g, s))
		}
	}
	out := []any{}
	for _, n := range names {
		text, isText := tasks.Text(n)
		if !isText {
			return nil, fmt.Errorf("'%s' object has no attribute 'strip'", strings.TrimSuffix(strings.TrimPrefix(pyClass(n), "<class '"), "'>"))
		}
		if strings.TrimSpace(text) == "" || containsText(out, text) {
			continue
		}
		out = append(out, tasks.Keep(n, strings.TrimSpace(text)))
	}
	return out, nil
}

// pyTruthy is Python's truth of an argument that is not text or a list.
func pyTruthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int:
		return x != 0
	case float64:
		return x != 0
	case map[string]any:
		return len(x) > 0
	}
	return v != nil
}

func containsText(list []any, s string) bool {
	for _, x := range list {
		if t, _ := tasks.Text(x); t == s {
			return true
		}
	}
	return false
}

// pyClass is Python's repr of type(v) for the values arguments hold.
func pyClass(v any) string {
	switch v.(type) {
	case []any:
		return "<class 'list'>"
	case map[string]any:
		return "<class 'dict'>"
	case nil:
		return "<class 'NoneType'>"
	case bool:
		return "<class 'bool'>"
	case int, int64, *big.Int:
		return "<class 'int'>"
	case float64:
		return "<class 'float'>"
	}
	return "<class 'str'>"
}

// Run returns the group (spaces become dashes, as Ansible does) and its
// parents (default: all).
func (groupByModule) Run(_ context.Context, _ *tasks.Env, args tasks.Args) (tasks.Result, error) {
	for k := range args {
		if k != "key" && k != "parents" {
			return tasks.Result{}, fmt.Errorf("Invalid options for group_by: %s", k)
		}
	}
	key, ok := args["key"]
	if !ok {
		return tasks.Result{Failed: true, Msg: "the 'key' param is required when using group_by"}, nil
	}
	parents := []any{"all"}
	p := args["parents"]
	if _, isText := tasks.Text(p); isText {
		parents = []any{p}
	} else if l, isList := p.([]any); isList {
		parents = l
	}
	out := make([]any, len(parents))
	for i, p := range parents {
		out[i] = groupName(p)
	}
	return tasks.Result{Data: map[string]any{
		"add_group": groupName(key), "parent_groups": out,
	}}, nil
}

// groupName is a group_by name: spaces become dashes, a mark is kept.
func groupName(v any) any {
	return tasks.Keep(v, strings.ReplaceAll(tasks.ToText(v), " ", "-"))
}

func firstArg(args tasks.Args, names ...string) any {
	for _, n := range names {
		if v, ok := args[n]; ok {
			return v
		}
	}
	return nil
}

// hostPort splits "name:port" (one colon, a numeric port) or
// "[v6addr]:port".
func hostPort(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || (strings.Count(s, ":") > 1 && !strings.HasPrefix(s, "[")) {
		return s, 0, false
	}
	port, err := strconv.Atoi(s[i+1:])
	if err != nil || port <= 0 || port > 65535 {
		return s, 0, false
	}
	return strings.Trim(s[:i], "[]"), port, true
}

func appendUnique(list []any, vs ...any) []any {
	for _, v := range vs {
		dup := false
		for _, x := range list {
			if x == v {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, v)
		}
	}
	return list
}

func (addHostModule) Spec() *tasks.Spec { return addHostSpec }

func (groupByModule) Spec() *tasks.Spec { return groupBySpec }
