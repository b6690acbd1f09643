package control

import (
	"context"
	"fmt"
	"strconv"
	"strings"

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
	if raw, ok := args["_raw_params"]; ok {
		if _, isMap := raw.(map[string]any); !isMap {
			return tasks.Result{Failed: true, Msg: fmt.Sprintf("Invalid raw parameters passed, requires a dictonary/mapping got a  %s", strings.TrimSuffix(strings.TrimPrefix(pyTypeName(raw), "<class '"), "'>"))}, nil
		}
	}
	name := firstArg(args, "name", "hostname", "host")
	if name == nil {
		return tasks.Result{Failed: true, Msg: "name, host or hostname needs to be provided"}, nil
	}
	hostName := tasks.ToText(name)
	vars := map[string]any{}
	if h, port, ok := hostPort(hostName); ok {
		hostName = h
		vars["ansible_ssh_port"] = port
	}
	var groups []any
	g := firstArg(args, "groupname", "groups", "group")
	if text, isText := tasks.Text(g); isText {
		for _, s := range strings.Split(text, ",") {
			if s != "" {
				groups = appendUnique(groups, tasks.Keep(g, strings.TrimSpace(s)))
			}
		}
	} else {
		switch g := g.(type) {
		case nil:
		case []any:
			groups = appendUnique(groups, g...)
		default:
			return tasks.Result{Failed: true, Msg: "Groups must be specified as a list."}, nil
		}
	}
	if groups == nil {
		groups = []any{}
	}
	for k, v := range args {
		switch k {
		case "name", "hostname", "groupname", "groups", "_raw_params":
		default:
			vars[k] = v
		}
	}
	return tasks.Result{Data: map[string]any{"add_host": map[string]any{
		"host_name": tasks.Keep(name, hostName), "groups": groups, "host_vars": vars,
	}}}, nil
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
