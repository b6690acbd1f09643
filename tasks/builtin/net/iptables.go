package net

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// iptablesModule manages one rule, a chain's policy, a flush or a user
// chain with the host's iptables or ip6tables, as ansible-core 2.14's
// iptables does: a rule's presence is checked with -C, then -A, -I or
// -D change it; -L reads a policy and -P sets it; -F flushes; with
// chain_management, -N and -X create and delete a chain. Everything
// happens in one round trip (iptables_script.go). The rule is built from
// the parameters word by word as Ansible builds it, and each word
// reaches iptables as one quoted argument, expanded on the host as
// Ansible's run_command expands it ($VAR, a leading ~).
//
// Two deliberate differences from ansible-core 2.14, both where it says
// changed without changing anything, on every run: flush reports
// changed only when the table (or chain) held rules to flush, and a
// chain named with state=absent and no rule reports changed only when
// chain_management deletes it. Parameter combinations that crash the
// Python module (an empty value, match_set without match_set_flags,
// tcp_flags without both flags and flags_set) fail with a message
// saying so.
type iptablesModule struct{}

var _ tasks.Module = iptablesModule{}

var iptablesArgs = &tasks.Spec{
	Module: "iptables",
	Params: []tasks.Param{
		{Name: "table", Default: "filter", Choices: []string{"filter", "nat", "mangle", "raw", "security"}},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "action", Default: "append", Choices: []string{"append", "insert"}},
		{Name: "ip_version", Default: "ipv4", Choices: []string{"ipv4", "ipv6"}},
		{Name: "chain"},
		{Name: "rule_num"},
		{Name: "protocol"},
		{Name: "wait"},
		{Name: "source"},
		{Name: "to_source"},
		{Name: "destination"},
		{Name: "to_destination"},
		{Name: "match", Kind: tasks.List, Default: []any{}},
		{Name: "tcp_flags", Kind: tasks.Dict},
		{Name: "jump"},
		{Name: "gateway"},
		{Name: "log_prefix"},
		{Name: "log_level", Choices: []string{"0", "1", "2", "3", "4", "5", "6", "7",
			"emerg", "alert", "crit", "error", "warning", "notice", "info", "debug"}},
		{Name: "goto"},
		{Name: "in_interface"},
		{Name: "out_interface"},
		{Name: "fragment"},
		{Name: "set_counters"},
		{Name: "source_port"},
		{Name: "destination_port"},
		{Name: "destination_ports", Kind: tasks.List, Default: []any{}},
		{Name: "to_ports"},
		{Name: "set_dscp_mark"},
		{Name: "set_dscp_mark_class"},
		{Name: "comment"},
		{Name: "ctstate", Kind: tasks.List, Default: []any{}},
		{Name: "src_range"},
		{Name: "dst_range"},
		{Name: "match_set"},
		{Name: "match_set_flags", Choices: []string{"src", "dst", "src,dst", "dst,src"}},
		{Name: "limit"},
		{Name: "limit_burst"},
		{Name: "uid_owner"},
		{Name: "gid_owner"},
		{Name: "reject_with"},
		{Name: "icmp_type"},
		{Name: "syn", Default: "ignore", Choices: []string{"ignore", "match", "negate"}},
		{Name: "flush", Kind: tasks.Bool, Default: false},
		{Name: "policy", Choices: []string{"ACCEPT", "DROP", "QUEUE", "RETURN"}},
		{Name: "chain_management", Kind: tasks.Bool, Default: false},
	},
	MutuallyExclusive: [][]string{{"set_dscp_mark", "set_dscp_mark_class"}, {"flush", "policy"}},
}

// iptablesTCPFlags are tcp_flags' suboptions.
var iptablesTCPFlags = &tasks.Spec{
	Module: "iptables",
	Params: []tasks.Param{{Name: "flags", Kind: tasks.List}, {Name: "flags_set", Kind: tasks.List}},
}

// Spec returns iptables' parameters.
func (iptablesModule) Spec() *tasks.Spec { return iptablesArgs }

// Run applies the task: a flush, a policy, a chain's removal, or a rule.
func (iptablesModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := iptablesArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if j := a.Str("jump"); (j == "TEE" || j == "tee") && !a.Has("gateway") {
		return tasks.Result{}, fmt.Errorf("jump is %s but all of the following are missing: gateway", j)
	}
	if a.Has("tcp_flags") {
		tf, err := iptablesTCPFlags.Decode(a.Dict("tcp_flags"))
		if err != nil {
			return tasks.Result{}, err
		}
		if !tf.Has("flags") || !tf.Has("flags_set") {
			return shared.Fail("tcp_flags needs both flags and flags_set (ansible-core fails on it with a TypeError)"), nil
		}
		a["tcp_flags"] = map[string]any{"flags": tf.Strings("flags"), "flags_set": tf.Strings("flags_set")}
	}
	if (a.Has("match_set") || hasString(a.Strings("match"), "set")) && !a.Has("match_set_flags") {
		return shared.Fail("match_set needs match_set_flags (ansible-core fails on it with a TypeError)"), nil
	}

	rule, err := iptablesRule(a)
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	version := a.Str("ip_version")
	data := map[string]any{
		"ip_version": version, "table": a.Str("table"), "chain": nilIfAbsent(a, "chain"),
		"flush": a.Bool("flush"), "state": a.Str("state"), "chain_management": a.Bool("chain_management"),
		"rule": strings.Join(append(iptablesWait(a.Str("wait")), rule...), " "),
	}
	// Logging options imply the LOG target, for the commands only: the
	// rule Ansible returns is built before.
	logJump := false
	if a.Str("log_prefix") != "" || a.Str("log_level") != "" {
		switch {
		case !a.Has("jump"):
			a["jump"] = "LOG"
			if rule, err = iptablesRule(a); err != nil {
				return shared.Fail(err.Error()), nil
			}
		case a.Str("jump") != "LOG":
			logJump = true
		}
	}
	bin := map[string]string{"ipv4": "iptables", "ipv6": "ip6tables"}[version]
	mode := "rule"
	switch {
	case a.Bool("flush"):
		mode = "flush"
	case a.Has("policy"):
		mode = "policy"
	case a.Str("state") == "absent" && data["rule"] == "":
		mode = "delchain"
	}
	script := shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + shared.ShAssign([][2]string{
		{"bin", bin}, {"mode", mode}, {"check", shared.BoolFlag(env.Check)},
		{"nochain", shared.BoolFlag(!a.Bool("flush") && !a.Has("chain"))}, {"logjump", shared.BoolFlag(logJump)},
		{"want", a.Str("state")}, {"policy", a.Str("policy")}, {"cm", shared.BoolFlag(a.Bool("chain_management"))},
	}) + "_t_w=" + shWait(a.Str("wait")) + "\n" + iptablesCommands(a, rule) + iptablesScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, blobs := shared.ParseDebBlobs(string(res.Stdout))
	switch {
	case v["fail"] != "":
		return shared.Fail(v["fail"]), nil
	case v["nochain"] == "1":
		return shared.Fail("Either chain or flush parameter must be specified."), nil
	case v["logjump"] == "1":
		return shared.Fail("Logging options can only be used with the LOG jump target."), nil
	case v["failed"] != "":
		var argv []string
		for _, b := range blobs {
			if b.Name == "argv" {
				argv = strings.Split(strings.TrimSuffix(b.Body, "\x00"), "\x00")
			}
		}
		out, errOut := shared.DebBlobText(blobs, "out"), shared.DebBlobText(blobs, "err")
		rc := shared.DebAtoi(v["rc"], 1)
		return tasks.Result{Failed: true, RC: rc, Msg: strings.TrimRight(errOut, " \t\r\n\f\v"), Data: map[string]any{
			"cmd": shared.PyCleanArgs(argv), "rc": rc, "stdout": out, "stderr": errOut,
			"stdout_lines": shared.Lines(out), "stderr_lines": shared.Lines(errOut)}}, nil
	case v["nopolicy"] == "1":
		return shared.Fail("Can't detect current policy"), nil
	case v["done"] != "1":
		return shared.Fail(shared.ScriptError(res)), nil
	}
	changed := v["changed"] == "1"
	return tasks.Result{Changed: changed, Data: data}, nil
}

// iptablesCommands defines the script's commands as shell functions
// _t_a_ID that run their arguments followed by the command's words (see
// iptables.sh), every word quoted for the host's expansion (Ansible's
// run_command expands $VAR and a leading ~ in each argument).
func iptablesCommands(a tasks.Values, words []string) string {
	table, chain := shared.ExpandWord(a.Str("table")), ""
	if a.Has("chain") {
		chain = " " + shared.ExpandWord(a.Str("chain"))
	}
	var rule strings.Builder
	rule.WriteString(` ${_t_w:+-w} ${_t_w:+"$_t_w"}`)
	for _, w := range words {
		rule.WriteString(" " + shared.ExpandWord(w))
	}
	insert := ""
	if a.Str("action") == "insert" && a.Has("rule_num") {
		insert = " " + shared.ExpandWord(a.Str("rule_num"))
	}
	add := "-A" + chain
	if a.Str("action") == "insert" {
		add = "-I" + chain + insert
	}
	cmds := [][2]string{
		{"chk", "-C" + chain + rule.String()},
		{"add", add + rule.String()},
		{"del", "-D" + chain + rule.String()},
		{"rules", "-S" + chain},
		{"list", "-L" + chain},
		{"setpol", "-P" + chain + " " + shared.ExpandWord(a.Str("policy"))},
		{"flush", "-F" + chain},
		{"new", "-N" + chain},
		{"delchain", "-X" + chain},
	}
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "_t_a_%s() { \"$@\" \"$_t_b\" -t %s %s; }\n", c[0], table, c[1])
	}
	return b.String()
}

// shWait is the shell word for wait's value (expanded on the host), or
// an empty one when Ansible would give no -w.
func shWait(w string) string {
	if w == "" {
		return "''"
	}
	return shared.ExpandWord(w)
}

// iptablesWait are the words wait adds at the start of a rule.
func iptablesWait(w string) []string {
	if w == "" {
		return nil
	}
	return []string{"-w", w}
}

// iptablesRule builds the words of the rule (without -w) as Ansible's
// construct_rule does, in its order. An empty value, which construct_rule
// fails on (it looks for a leading "!"), is an error.
func iptablesRule(a tasks.Values) ([]string, error) {
	var r []string
	var empty []string
	add := func(v, flag, name string) {
		if v == "" {
			empty = append(empty, name)
			return
		}
		if rest, ok := strings.CutPrefix(v, "!"); ok {
			r = append(r, "!", flag, rest)
			return
		}
		r = append(r, flag, v)
	}
	param := func(name, flag string) {
		if a.Has(name) {
			add(a.Str(name), flag, name)
		}
	}
	matchFlag := func(v, flag string, negatable bool) {
		switch {
		case v == "match":
			r = append(r, flag)
		case negatable && v == "negate":
			r = append(r, "!", flag)
		}
	}
	csv := func(name, flag string) {
		if l := a.Strings(name); len(l) > 0 {
			r = append(r, flag, strings.Join(l, ","))
		}
	}
	matchIf := func(cond bool, m string) {
		if cond {
			r = append(r, "-m", m)
		}
	}
	matches := a.Strings("match")
	param("protocol", "-p")
	param("source", "-s")
	param("destination", "-d")
	for _, m := range matches {
		add(m, "-m", "match")
	}
	if tf, ok := a["tcp_flags"].(map[string]any); ok {
		r = append(r, "--tcp-flags", strings.Join(tf["flags"].([]string), ","), strings.Join(tf["flags_set"].([]string), ","))
	}
	param("jump", "-j")
	if strings.ToLower(a.Str("jump")) == "tee" {
		param("gateway", "--gateway")
	}
	param("log_prefix", "--log-prefix")
	param("log_level", "--log-level")
	param("to_destination", "--to-destination")
	matchIf(len(a.List("destination_ports")) > 0, "multiport")
	csv("destination_ports", "--dports")
	param("to_source", "--to-source")
	param("goto", "-g")
	param("in_interface", "-i")
	param("out_interface", "-o")
	param("fragment", "-f")
	param("set_counters", "-c")
	param("source_port", "--source-port")
	param("destination_port", "--destination-port")
	param("to_ports", "--to-ports")
	param("set_dscp_mark", "--set-dscp")
	param("set_dscp_mark_class", "--set-dscp-class")
	matchFlag(a.Str("syn"), "--syn", true)
	switch {
	case hasString(matches, "conntrack"):
		csv("ctstate", "--ctstate")
	case hasString(matches, "state"):
		csv("ctstate", "--state")
	case len(a.List("ctstate")) > 0:
		r = append(r, "-m", "conntrack")
		csv("ctstate", "--ctstate")
	}
	rangeGiven := a.Has("src_range") || a.Has("dst_range")
	if hasString(matches, "iprange") || rangeGiven {
		matchIf(!hasString(matches, "iprange"), "iprange")
		param("src_range", "--src-range")
		param("dst_range", "--dst-range")
	}
	if hasString(matches, "set") || a.Has("match_set") {
		matchIf(!hasString(matches, "set"), "set")
		param("match_set", "--match-set")
		r = append(r, a.Str("match_set_flags"))
	}
	matchIf(a.Has("limit") || a.Has("limit_burst"), "limit")
	param("limit", "--limit")
	param("limit_burst", "--limit-burst")
	for _, o := range []string{"uid_owner", "gid_owner"} {
		flag := "--" + strings.ReplaceAll(o, "_", "-")
		matchIf(a.Has(o), "owner")
		matchFlag(a.Str(o), flag, true)
		param(o, flag)
	}
	if !a.Has("jump") && a.Has("reject_with") {
		r = append(r, "-j", "REJECT")
	}
	param("reject_with", "--reject-with")
	icmp := "--icmp-type"
	if a.Str("ip_version") == "ipv6" {
		icmp = "--icmpv6-type"
	}
	param("icmp_type", icmp)
	matchIf(a.Has("comment"), "comment")
	param("comment", "--comment")
	if len(empty) > 0 {
		return nil, fmt.Errorf("empty value for %s (ansible-core fails on it with an IndexError)", empty[0])
	}
	return r, nil
}

func hasString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// nilIfAbsent is a parameter's value, or nil (Python's None) when it was
// not given.
func nilIfAbsent(a tasks.Values, name string) any {
	if !a.Has(name) {
		return nil
	}
	return a[name]
}
