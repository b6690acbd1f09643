package playbooks

import (
	"slices"
	"sort"

	"go.yaml.in/yaml/v3"
)

// commonKeys are the keywords every level (play, role, block, task) takes.
var commonKeys = []string{
	"name", "become", "become_user", "become_method", "become_flags", "become_exe",
	"remote_user", "connection", "port", "environment", "no_log", "run_once",
	"ignore_errors", "ignore_unreachable", "check_mode", "diff", "any_errors_fatal",
	"throttle", "timeout", "module_defaults", "collections", "debugger", "vars", "tags",
}

var (
	playKeys = set(commonKeys, "hosts", "gather_facts", "gather_subset", "gather_timeout",
		"fact_path", "vars_files", "vars_prompt", "serial", "max_fail_percentage",
		"strategy", "order", "force_handlers", "pre_tasks", "tasks", "post_tasks",
		"handlers", "roles")
	roleKeys  = set(commonKeys, "role", "when", "delegate_to", "delegate_facts")
	blockKeys = set(commonKeys, "block", "rescue", "always", "when", "delegate_to",
		"delegate_facts", "notify")
	taskKeys = set(commonKeys, "when", "delegate_to", "delegate_facts", "notify",
		"action", "local_action", "args", "async", "poll", "changed_when", "failed_when",
		"until", "retries", "delay", "loop", "loop_control", "register", "listen")
	loopControlKeys = set(nil, "loop_var", "index_var", "label", "pause", "extended",
		"extended_allitems")
)

// KeywordNames lists, sorted, the keywords a level takes: "play", "role",
// "block", "task" or "loop_control" (nil for another level). A task's
// module and its with_<lookup> loops are not keywords.
func KeywordNames(level string) []string {
	m := map[string]map[string]bool{"play": playKeys, "role": roleKeys, "block": blockKeys,
		"task": taskKeys, "loop_control": loopControlKeys}[level]
	if m == nil {
		return nil
	}
	return keysOf(m)
}

func set(base []string, more ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range append(slices.Clone(base), more...) {
		m[k] = true
	}
	return m
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keyword decodes a keyword shared by several levels into kw; it reports
// false for a key it does not handle. name is handled by the caller.
func (l *loader) keyword(file string, e entry, kw *Keywords) bool {
	v := e.v
	switch e.key {
	case "become":
		kw.Become = l.boolean(file, e.key, v)
	case "become_user":
		kw.BecomeUser = l.str(file, e.key, v)
	case "become_method":
		kw.BecomeMethod = l.str(file, e.key, v)
	case "become_flags":
		kw.BecomeFlags = l.str(file, e.key, v)
	case "become_exe":
		kw.BecomeExe = l.str(file, e.key, v)
	case "remote_user":
		kw.RemoteUser = l.str(file, e.key, v)
	case "connection":
		kw.Connection = l.str(file, e.key, v)
	case "port":
		kw.Port = l.value(file, v)
	case "environment":
		env := l.value(file, v)
		switch x := env.(type) {
		case map[string]any, nil:
		case string:
			if !isTemplate(x) {
				l.errs.add(file, v, "environment must be a mapping or a template naming one, not %q", x)
			}
		case []any:
			// A list of mappings or templates, merged in order (Ansible accepts it).
		default:
			l.errs.add(file, v, "environment must be a mapping, not %s", typeName(x))
		}
		kw.Environment = env
	case "no_log":
		kw.NoLog = l.boolean(file, e.key, v)
	case "run_once":
		kw.RunOnce = l.boolean(file, e.key, v)
	case "ignore_errors":
		kw.IgnoreErrors = l.boolean(file, e.key, v)
	case "ignore_unreachable":
		kw.IgnoreUnreachable = l.boolean(file, e.key, v)
	case "check_mode":
		kw.CheckMode = l.boolean(file, e.key, v)
	case "diff":
		kw.Diff = l.boolean(file, e.key, v)
	case "any_errors_fatal":
		kw.AnyErrorsFatal = l.boolean(file, e.key, v)
	case "delegate_to":
		kw.DelegateTo = l.str(file, e.key, v)
	case "delegate_facts":
		kw.DelegateFacts = l.boolean(file, e.key, v)
	case "throttle":
		kw.Throttle = l.value(file, v)
	case "timeout":
		kw.Timeout = l.value(file, v)
	case "module_defaults":
		kw.ModuleDefaults = l.value(file, v)
	case "collections":
		kw.Collections = l.strList(file, e.key, v)
	case "debugger":
		kw.Debugger = l.str(file, e.key, v)
		if kw.Debugger != "" && kw.Debugger != "never" {
			l.errs.add(file, v, "debugger: %s asks for Ansible's interactive task debugger, which tender does not have (only never is accepted)", kw.Debugger)
		}
	case "vars":
		kw.Vars = l.vars(file, e.key, v)
		l.checkVarNames(file, v)
	case "tags":
		kw.Tags = l.tags(file, v)
	case "when":
		kw.When = l.conds(file, e.key, v)
		l.checkConds(file, e.key, v, kw.When)
	case "notify":
		kw.Notify = l.strList(file, e.key, v)
	default:
		return false
	}
	return true
}

// unknownKey reports a key that a level does not take, naming the nearest
// one it does.
func (l *loader) unknownKey(file string, e entry, what string, allowed map[string]bool) {
	l.errs.add(file, e.k, "%q is not a valid attribute for a %s%s", e.key, what, didYouMean(e.key, keysOf(allowed)))
}

// mergeTags returns the sorted union of tag lists.
func mergeTags(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, t := range l {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	sort.Strings(out)
	return out
}

// isNode reports whether a node is a present, non-null value.
func isNode(n *yaml.Node) bool {
	n = deref(n)
	return n != nil && !(n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}
