package net

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
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
	j, res, err := decodeIptables(args)
	if j == nil {
		return res, err
	}
	if err := j.plan(); err != nil {
		return shared.Fail(err.Error()), nil
	}
	out, err := shared.Run(ctx, env, j.script(env.Check), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(out), nil
}

// iptablesJob is one iptables task: its decoded arguments and the plan
// made from them.
type iptablesJob struct {
	a tasks.Values
	// rule is the rule's words for the commands, with the LOG jump that
	// logging options imply; data is the result's data, whose rule is
	// the one Ansible returns, built before that jump.
	rule []string
	data map[string]any
	// mode is what the script does (flush, policy, delchain or rule);
	// logJump is set when logging options meet a jump other than LOG.
	mode    string
	logJump bool
}

// decodeIptables validates iptables' arguments and returns the job they
// describe, or (with a nil job) the error or failed result the task ends
// with: a TEE jump without gateway, tcp_flags or match_set missing a part.
func decodeIptables(args tasks.Args) (*iptablesJob, tasks.Result, error) {
	a, err := iptablesArgs.Decode(args)
	if err != nil {
		return nil, tasks.Result{}, err
	}
	if j := a.Str("jump"); (j == "TEE" || j == "tee") && !a.Has("gateway") {
		return nil, tasks.Result{}, fmt.Errorf("jump is %s but all of the following are missing: gateway", j)
	}
	if a.Has("tcp_flags") {
		tf, err := iptablesTCPFlags.Decode(a.Dict("tcp_flags"))
		if err != nil {
			return nil, tasks.Result{}, err
		}
		if !tf.Has("flags") || !tf.Has("flags_set") {
			return nil, shared.Fail("tcp_flags needs both flags and flags_set (ansible-core fails on it with a TypeError)"), nil
		}
		a["tcp_flags"] = map[string]any{"flags": tf.Strings("flags"), "flags_set": tf.Strings("flags_set")}
	}
	if (a.Has("match_set") || hasString(a.Strings("match"), "set")) && !a.Has("match_set_flags") {
		return nil, shared.Fail("match_set needs match_set_flags (ansible-core fails on it with a TypeError)"), nil
	}
	return &iptablesJob{a: a}, tasks.Result{}, nil
}

// plan builds the rule's words, the result's data and the script's mode,
// all in Go; a parameter with an empty value is an error.
func (j *iptablesJob) plan() error {
	a := j.a
	rule, err := iptablesRule(a)
	if err != nil {
		return err
	}
	j.rule = rule
	j.data = map[string]any{
		"ip_version": a.Str("ip_version"), "table": a.Str("table"), "chain": nilIfAbsent(a, "chain"),
		"flush": a.Bool("flush"), "state": a.Str("state"), "chain_management": a.Bool("chain_management"),
		"rule": strings.Join(append(iptablesWait(a.Str("wait")), rule...), " "),
	}
	// Logging options imply the LOG target, for the commands only: the
	// rule Ansible returns is built before.
	if a.Str("log_prefix") != "" || a.Str("log_level") != "" {
		switch {
		case !a.Has("jump"):
			a["jump"] = "LOG"
			if j.rule, err = iptablesRule(a); err != nil {
				return err
			}
		case a.Str("jump") != "LOG":
			j.logJump = true
		}
	}
	j.mode = "rule"
	switch {
	case a.Bool("flush"):
		j.mode = "flush"
	case a.Has("policy"):
		j.mode = "policy"
	case a.Str("state") == "absent" && j.data["rule"] == "":
		j.mode = "delchain"
	}
	return nil
}

// script is the plan's check-and-apply script (iptablesScript), changing
// nothing when check is set.
func (j *iptablesJob) script(check bool) string {
	a := j.a
	bin := map[string]string{"ipv4": "iptables", "ipv6": "ip6tables"}[a.Str("ip_version")]
	return shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + shared.ShAssign([][2]string{
		{"bin", bin}, {"mode", j.mode}, {"check", shared.BoolFlag(check)},
		{"nochain", shared.BoolFlag(!a.Bool("flush") && !a.Has("chain"))}, {"logjump", shared.BoolFlag(j.logJump)},
		{"want", a.Str("state")}, {"policy", a.Str("policy")}, {"cm", shared.BoolFlag(a.Bool("chain_management"))},
	}) + "_t_w=" + shWait(a.Str("wait")) + "\n" + iptablesCommands(a, j.rule) + iptablesScript
}

// result turns the script's output into the task's result: a failure the
// script reported, or the change it made (or would make).
func (j *iptablesJob) result(out transport.Result) tasks.Result {
	v, blobs := shared.ParseDebBlobs(string(out.Stdout))
	switch {
	case v["fail"] != "":
		return shared.Fail(v["fail"])
	case v["nochain"] == "1":
		return shared.Fail("Either chain or flush parameter must be specified.")
	case v["logjump"] == "1":
		return shared.Fail("Logging options can only be used with the LOG jump target.")
	case v["failed"] != "":
		var argv []string
		for _, b := range blobs {
			if b.Name == "argv" {
				argv = strings.Split(strings.TrimSuffix(b.Body, "\x00"), "\x00")
			}
		}
		return iptablesCommandFailure(v["rc"], argv, shared.DebBlobText(blobs, "out"), shared.DebBlobText(blobs, "err"))
	case v["nopolicy"] == "1":
		return shared.Fail("Can't detect current policy")
	case v["done"] != "1":
		return shared.Fail(shared.ScriptError(out))
	}
	return tasks.Result{Changed: v["changed"] == "1", Data: j.data}
}

// iptablesCommandFailure is the result of a command that failed (its
// words argv, exit status rcText, output out and errOut), as Ansible's
// check_rc reports it.
func iptablesCommandFailure(rcText string, argv []string, out, errOut string) tasks.Result {
	rc := shared.DebAtoi(rcText, 1)
	return tasks.Result{Failed: true, RC: rc, Msg: strings.TrimRight(errOut, " \t\r\n\f\v"), Data: map[string]any{
		"cmd": shared.PyCleanArgs(argv), "rc": rc, "stdout": out, "stderr": errOut,
		"stdout_lines": shared.Lines(out), "stderr_lines": shared.Lines(errOut)}}
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
	b := &iptablesBuilder{a: a, matches: a.Strings("match")}
	b.selectors()
	b.targets()
	b.packetOptions()
	b.connState()
	b.rangesAndSets()
	b.limitsAndOwners()
	b.rejectAndComment()
	if len(b.empty) > 0 {
		return nil, fmt.Errorf("empty value for %s (ansible-core fails on it with an IndexError)", b.empty[0])
	}
	return b.words, nil
}

// iptablesBuilder gathers a rule's words from the task's parameters, in
// construct_rule's order, and notes the parameters given an empty value.
type iptablesBuilder struct {
	a       tasks.Values
	matches []string // the modules the match parameter names
	words   []string
	empty   []string
}

// add appends flag and v, as "! flag rest" when v is "!rest"; an empty v
// is noted under name instead.
func (b *iptablesBuilder) add(v, flag, name string) {
	if v == "" {
		b.empty = append(b.empty, name)
		return
	}
	if rest, ok := strings.CutPrefix(v, "!"); ok {
		b.words = append(b.words, "!", flag, rest)
		return
	}
	b.words = append(b.words, flag, v)
}

// param adds the named parameter's value after flag, when it was given.
func (b *iptablesBuilder) param(name, flag string) {
	if b.a.Has(name) {
		b.add(b.a.Str(name), flag, name)
	}
}

// matchFlag adds flag alone when v is "match", or negated when v is
// "negate".
func (b *iptablesBuilder) matchFlag(v, flag string) {
	switch v {
	case "match":
		b.words = append(b.words, flag)
	case "negate":
		b.words = append(b.words, "!", flag)
	}
}

// csv adds flag and the named list's items joined by commas, when the
// list is not empty.
func (b *iptablesBuilder) csv(name, flag string) {
	if l := b.a.Strings(name); len(l) > 0 {
		b.words = append(b.words, flag, strings.Join(l, ","))
	}
}

// matchIf adds "-m m" when cond holds.
func (b *iptablesBuilder) matchIf(cond bool, m string) {
	if cond {
		b.words = append(b.words, "-m", m)
	}
}

// matched reports whether the match parameter names module m.
func (b *iptablesBuilder) matched(m string) bool { return hasString(b.matches, m) }

// selectors adds the protocol, the addresses, the match modules and the
// TCP flags.
func (b *iptablesBuilder) selectors() {
	b.param("protocol", "-p")
	b.param("source", "-s")
	b.param("destination", "-d")
	for _, m := range b.matches {
		b.add(m, "-m", "match")
	}
	if tf, ok := b.a["tcp_flags"].(map[string]any); ok {
		b.words = append(b.words, "--tcp-flags", strings.Join(tf["flags"].([]string), ","), strings.Join(tf["flags_set"].([]string), ","))
	}
}

// targets adds the jump and the options that go with targets: TEE's
// gateway, logging, NAT addresses, multiport's ports and goto.
func (b *iptablesBuilder) targets() {
	b.param("jump", "-j")
	if strings.ToLower(b.a.Str("jump")) == "tee" {
		b.param("gateway", "--gateway")
	}
	b.param("log_prefix", "--log-prefix")
	b.param("log_level", "--log-level")
	b.param("to_destination", "--to-destination")
	b.matchIf(len(b.a.List("destination_ports")) > 0, "multiport")
	b.csv("destination_ports", "--dports")
	b.param("to_source", "--to-source")
	b.param("goto", "-g")
}

// packetOptions adds the interfaces, fragment, counters, ports, DSCP
// marks and syn.
func (b *iptablesBuilder) packetOptions() {
	b.param("in_interface", "-i")
	b.param("out_interface", "-o")
	b.param("fragment", "-f")
	b.param("set_counters", "-c")
	b.param("source_port", "--source-port")
	b.param("destination_port", "--destination-port")
	b.param("to_ports", "--to-ports")
	b.param("set_dscp_mark", "--set-dscp")
	b.param("set_dscp_mark_class", "--set-dscp-class")
	b.matchFlag(b.a.Str("syn"), "--syn")
}

// connState adds ctstate, with the conntrack or state module the match
// parameter names, else with conntrack's.
func (b *iptablesBuilder) connState() {
	switch {
	case b.matched("conntrack"):
		b.csv("ctstate", "--ctstate")
	case b.matched("state"):
		b.csv("ctstate", "--state")
	case len(b.a.List("ctstate")) > 0:
		b.words = append(b.words, "-m", "conntrack")
		b.csv("ctstate", "--ctstate")
	}
}

// rangesAndSets adds iprange's address ranges and set's match_set with
// its flags, each with its module unless the match parameter names it.
func (b *iptablesBuilder) rangesAndSets() {
	a := b.a
	if b.matched("iprange") || a.Has("src_range") || a.Has("dst_range") {
		b.matchIf(!b.matched("iprange"), "iprange")
		b.param("src_range", "--src-range")
		b.param("dst_range", "--dst-range")
	}
	if b.matched("set") || a.Has("match_set") {
		b.matchIf(!b.matched("set"), "set")
		b.param("match_set", "--match-set")
		b.words = append(b.words, a.Str("match_set_flags"))
	}
}

// limitsAndOwners adds the limit module's options and the owner module's
// uid_owner and gid_owner.
func (b *iptablesBuilder) limitsAndOwners() {
	b.matchIf(b.a.Has("limit") || b.a.Has("limit_burst"), "limit")
	b.param("limit", "--limit")
	b.param("limit_burst", "--limit-burst")
	for _, o := range []string{"uid_owner", "gid_owner"} {
		flag := "--" + strings.ReplaceAll(o, "_", "-")
		b.matchIf(b.a.Has(o), "owner")
		b.matchFlag(b.a.Str(o), flag)
		b.param(o, flag)
	}
}

// rejectAndComment adds the REJECT jump reject_with implies without a
// jump, reject_with, the ICMP type and the comment.
func (b *iptablesBuilder) rejectAndComment() {
	if !b.a.Has("jump") && b.a.Has("reject_with") {
		b.words = append(b.words, "-j", "REJECT")
	}
	b.param("reject_with", "--reject-with")
	icmp := "--icmp-type"
	if b.a.Str("ip_version") == "ipv6" {
		icmp = "--icmpv6-type"
	}
	b.param("icmp_type", icmp)
	b.matchIf(b.a.Has("comment"), "comment")
	b.param("comment", "--comment")
}

// hasString reports whether l holds s.
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
