package net

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// ufwModule drives the host's ufw program as community.general's ufw
// module does: it saves `ufw status verbose` and the tuple lines of the
// user rules files, runs one ufw command for each of state, default,
// rule and logging (in that order), and reports changed when the status
// or the rules differ afterwards (state reloaded and reset always
// change). In check mode it runs only the rule, with --dry-run, and
// judges the other commands from the status it saved. The result lists
// every command run under commands, and the final status as msg.
//
// Each command is the module's command line, split into words as
// Python's shlex splits it and expanded as Ansible's run_command expands
// each word ($VAR, a leading ~); everything happens in one round trip
// (ufw_script.go). A rule whose values hold quotes that Ansible's
// splitting would merge across its parts fails with a message saying
// so.
type ufwModule struct{}

var _ tasks.Module = ufwModule{}

var ufwArgs = &tasks.Spec{
	Module: "ufw",
	Params: []tasks.Param{
		{Name: "state", Choices: []string{"enabled", "disabled", "reloaded", "reset"}},
		{Name: "default", Aliases: []string{"policy"}, Choices: []string{"allow", "deny", "reject"}},
		{Name: "logging", Choices: []string{"full", "high", "low", "medium", "off", "on"}},
		{Name: "direction", Choices: []string{"in", "incoming", "out", "outgoing", "routed"}},
		{Name: "delete", Kind: tasks.Bool, Default: false},
		{Name: "route", Kind: tasks.Bool, Default: false},
		{Name: "insert", Kind: tasks.Int},
		{Name: "insert_relative_to", Default: "zero", Choices: []string{"zero", "first-ipv4", "last-ipv4", "first-ipv6", "last-ipv6"}},
		{Name: "rule", Choices: []string{"allow", "deny", "limit", "reject"}},
		{Name: "interface", Aliases: []string{"if"}},
		{Name: "interface_in", Aliases: []string{"if_in"}},
		{Name: "interface_out", Aliases: []string{"if_out"}},
		{Name: "log", Kind: tasks.Bool, Default: false},
		{Name: "from_ip", Default: "any", Aliases: []string{"from", "src"}},
		{Name: "from_port"},
		{Name: "to_ip", Default: "any", Aliases: []string{"dest", "to"}},
		{Name: "to_port", Aliases: []string{"port"}},
		{Name: "proto", Aliases: []string{"protocol"}, Choices: []string{"ah", "any", "esp", "ipv6", "tcp", "udp", "gre", "igmp"}},
		{Name: "name", Aliases: []string{"app"}},
		{Name: "comment"},
	},
	MutuallyExclusive: [][]string{{"name", "proto", "logging"}, {"direction", "interface_in"}, {"direction", "interface_out"}},
	RequiredOneOf:     [][]string{{"state", "default", "rule", "logging"}},
}

// Spec returns ufw's parameters.
func (ufwModule) Spec() *tasks.Spec { return ufwArgs }

// ufwCommandKeys are the parameters that each make one ufw command, in
// the order the module runs them.
var ufwCommandKeys = []string{"state", "default", "rule", "logging"}

// ufwStates are the ufw commands of the state values.
var ufwStates = map[string]string{"enabled": "enable", "disabled": "disable", "reloaded": "reload", "reset": "reset"}

// ufwRulesFiles are the user rules files whose tuple lines are compared.
const ufwRulesFiles = "/lib/ufw/user.rules /lib/ufw/user6.rules /etc/ufw/user.rules /etc/ufw/user6.rules " +
	"/var/lib/ufw/user.rules /var/lib/ufw/user6.rules"

// Run applies the task's commands and reports what changed.
func (ufwModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := ufwArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Has("interface") && !a.Has("direction") {
		return tasks.Result{}, fmt.Errorf("missing parameter(s) required by 'interface': direction")
	}
	j := &ufwJob{a: a, check: env.Check}
	script, err := j.script()
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(out), nil
}

// ufwJob is one ufw task: its decoded arguments, check mode, and the
// rule's command line in parts (see ufwRule).
type ufwJob struct {
	a     tasks.Values
	check bool
	rule  ufwRule
}

// ufwRule is a rule's command line after the ufw binary, in the parts
// the host completes: pre (--dry-run, route, delete), then "insert N"
// when the host found N, mid (the action to the application), then the
// comment when the host's ufw takes comments. Each part is kept as text
// (for the commands list) and as words.
type ufwRule struct {
	pre, mid, comment    string
	preW, midW, commentW []string
	hasInsert, relative  bool
	insert               int
	insertRelTo          string
}

// commands are the command keys the task gives, in the module's order.
func (j *ufwJob) commands() []string {
	var keys []string
	for _, k := range ufwCommandKeys {
		if j.a.Str(k) != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// ufwJoin is Ansible's command line for parts: those given, joined by
// spaces.
func ufwJoin(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " ")
}

// planRule builds the rule's command line parts as the module does,
// failing where shlex would split them other than part by part.
func (j *ufwJob) planRule() error {
	a, r := j.a, &j.rule
	var pre, mid []string
	add := func(l *[]string, cond bool, s string) {
		if cond {
			*l = append(*l, s)
		}
	}
	add(&pre, j.check, "--dry-run")
	add(&pre, a.Bool("route"), "route")
	add(&pre, a.Bool("delete"), "delete")
	if a.Has("insert") && !a.Bool("delete") {
		r.hasInsert, r.insert = true, a.Int("insert")
		r.relative = a.Str("insert_relative_to") != "zero"
		r.insertRelTo = a.Str("insert_relative_to")
	}
	mid = append(mid, a.Str("rule"))
	add(&mid, a.Str("direction") != "", a.Str("direction"))
	for _, p := range [][2]string{{"interface", "on %s"}, {"interface_in", "in on %s"}, {"interface_out", "out on %s"}} {
		add(&mid, a.Str(p[0]) != "", fmt.Sprintf(p[1], a.Str(p[0])))
	}
	add(&mid, a.Bool("log"), "log")
	for _, p := range [][2]string{{"from_ip", "from %s"}, {"from_port", "port %s"}, {"to_ip", "to %s"},
		{"to_port", "port %s"}, {"proto", "proto %s"}, {"name", "app '%s'"}} {
		add(&mid, a.Str(p[0]) != "", fmt.Sprintf(p[1], a.Str(p[0])))
	}
	r.pre, r.mid = strings.Join(pre, " "), strings.Join(mid, " ")
	if a.Str("comment") != "" {
		r.comment = fmt.Sprintf("comment '%s'", a.Str("comment"))
	}
	var err error
	if r.preW, err = shlex.Split(r.pre); err != nil {
		return ufwSplitError(err)
	}
	if r.midW, err = shlex.Split(r.mid); err != nil {
		return ufwSplitError(err)
	}
	if r.commentW, err = shlex.Split(r.comment); err != nil {
		return ufwSplitError(err)
	}
	// the whole line must split into the parts' words, whatever the
	// host adds (an insert number, the comment)
	for _, ins := range []string{"", "insert 1"} {
		for _, c := range []string{"", r.comment} {
			whole, err := shlex.Split(ufwJoin(r.pre, ins, r.mid, c))
			if err != nil {
				return ufwSplitError(err)
			}
			insW, _ := shlex.Split(ins)
			cW, _ := shlex.Split(c)
			if !slices.Equal(whole, slices.Concat(r.preW, insW, r.midW, cW)) {
				return fmt.Errorf("the rule's values hold quotes that join its parts into other words: not supported")
			}
		}
	}
	return nil
}

// ufwSplitError is the failure of a rule Python's shlex cannot split
// (the Python module dies on it with a traceback).
func ufwSplitError(err error) error {
	return fmt.Errorf("the rule's command line cannot be split into words: %v", err)
}

// ufwWords renders words as shell words the host expands as Ansible's
// run_command does.
func ufwWords(words []string) string {
	var b strings.Builder
	for _, w := range words {
		b.WriteString(" " + shared.ExpandWord(w))
	}
	return b.String()
}

// script is the task's script: ufw.sh's helpers, then the steps in the
// module's order, changing nothing in check mode.
func (j *ufwJob) script() (string, error) {
	a := j.a
	var b strings.Builder
	b.WriteString("_u_begin\n")
	for _, k := range j.commands() {
		v := a.Str(k)
		switch k {
		case "state":
			if !j.check {
				fmt.Fprintf(&b, "_u_x state '' '' \"$_u_ufw\" -f %s\n", ufwStates[v])
			}
		case "default":
			if d := a.Str("direction"); d != "" && d != "outgoing" && d != "incoming" && d != "routed" {
				b.WriteString("_u_fail " + shared.Q(`For default, direction must be one of "outgoing", "incoming" and "routed", or direction must not be specified.`) + "\n")
				return j.wrap(b.String()), nil
			}
			if !j.check {
				fmt.Fprintf(&b, "_u_x default '' '' \"$_u_ufw\" default %s%s\n", v, ufwWords(ufwDirWords(a)))
			}
		case "rule":
			if d := a.Str("direction"); d != "" && d != "in" && d != "out" {
				b.WriteString("_u_fail " + shared.Q(`For rules, direction must be one of "in" and "out", or direction must not be specified.`) + "\n")
				return j.wrap(b.String()), nil
			}
			if !a.Bool("route") && a.Str("interface_in") != "" && a.Str("interface_out") != "" {
				b.WriteString("_u_fail " + shared.Q("Only route rules can combine interface_in and interface_out") + "\n")
				return j.wrap(b.String()), nil
			}
			if err := j.planRule(); err != nil {
				return "", err
			}
			b.WriteString(j.ruleSteps())
		case "logging":
			if !j.check {
				fmt.Fprintf(&b, "_u_x logging '' '' \"$_u_ufw\" logging %s\n", v)
			}
		}
	}
	if !j.check {
		b.WriteString("_u_x post_state '' post_state \"$_u_ufw\" status verbose\n_u_rules post_rules\n")
	}
	b.WriteString("echo; echo done=1\n")
	return j.wrap(b.String()), nil
}

// ufwDirWords is the direction word a default command ends with, if any.
func ufwDirWords(a tasks.Values) []string {
	if d := a.Str("direction"); d != "" {
		return []string{d}
	}
	return nil
}

// wrap puts the shared helpers and ufw.sh before the steps.
func (j *ufwJob) wrap(steps string) string {
	return shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + ufwFuncs + steps
}

// ruleSteps are the rule's steps: the insert number (relative to the
// host's rules when asked), ufw's version, then the rule itself, with
// the comment when that ufw takes comments.
func (j *ufwJob) ruleSteps() string {
	r := j.rule
	var b strings.Builder
	b.WriteString("_u_ins=\n")
	if r.hasInsert {
		if r.relative {
			fmt.Fprintf(&b, "_u_relative %s %d\n", shared.Q(r.insertRelTo), r.insert)
		} else {
			fmt.Fprintf(&b, "_u_ins=%d\n", r.insert)
		}
	}
	b.WriteString("_u_version\nprintf '\\nins=%s\\ncmt=%s\\n' \"$_u_ins\" \"$_u_cmt\"\n")
	line := "_u_x rule '' dry \"$_u_ufw\"" + ufwWords(r.preW) + ` ${_u_ins:+insert} ${_u_ins:+"$_u_ins"}` + ufwWords(r.midW)
	if r.comment == "" {
		b.WriteString(line + "\n")
	} else {
		fmt.Fprintf(&b, "if [ -n \"$_u_cmt\" ]; then %s%s; else %s; fi\n", line, ufwWords(r.commentW), line)
	}
	return b.String()
}

// ufwRun is what the script reported: the commands run in order, the
// blobs of their output, and its key=value lines.
type ufwRun struct {
	v     shared.Verdict
	ran   []string
	blobs map[string]string
}

// parseUfw reads the script's output.
func parseUfw(stdout string) ufwRun {
	v, blobs := shared.ParseDebBlobs(stdout)
	r := ufwRun{v: v, blobs: map[string]string{}}
	for _, b := range blobs {
		if b.Name == "ran" {
			r.ran = append(r.ran, b.Body)
		} else {
			r.blobs[b.Name] = b.Body
		}
	}
	return r
}

// display is the command line the module lists for the command id.
func (j *ufwJob) display(id string, v shared.Verdict) string {
	ufw, a := v["ufw"], j.a
	switch id {
	case "pre_state", "post_state":
		return ufw + " status verbose"
	case "pre_rules", "post_rules":
		return v["grep"] + " -h '^### tuple' " + ufwRulesFiles
	case "state":
		return ufw + " -f " + ufwStates[a.Str("state")]
	case "default":
		return ufwJoin(ufw, "default", a.Str("default"), a.Str("direction"))
	case "logging":
		return ufw + " logging " + a.Str("logging")
	case "version":
		return ufw + " --version"
	case "rule":
		ins, c := "", ""
		if v["ins"] != "" {
			ins = "insert " + v["ins"]
		}
		if v["cmt"] != "" {
			c = j.rule.comment
		}
		return ufwJoin(ufw, j.rule.pre, ins, j.rule.mid, c)
	}
	return id
}

// result turns the script's output into the task's result.
func (j *ufwJob) result(out transport.Result) tasks.Result {
	r := parseUfw(string(out.Stdout))
	v := r.v
	cmds := make([]any, 0, len(r.ran))
	for _, id := range r.ran {
		cmds = append(cmds, j.display(id, v))
	}
	switch {
	case v["fail"] != "":
		return shared.Fail(v["fail"])
	case v["msgfail"] != "":
		return shared.Fail(v["msgfail"])
	case v["verfail"] != "":
		return tasks.Result{Failed: true, Msg: "Failed to get ufw version.", Data: map[string]any{"rc": 0, "out": r.blobs["out"]}}
	case v["failed"] != "":
		msg := r.blobs["err"]
		if msg == "" {
			msg = r.blobs["out"]
		}
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{"commands": cmds}}
	case v["done"] != "1":
		return shared.Fail(shared.ScriptError(out))
	}
	pre := r.blobs["pre_state"]
	changed := j.judged(pre, r.blobs["pre_rules"], r.blobs["dry"])
	if j.check {
		return tasks.Result{Changed: changed, Data: map[string]any{"commands": cmds}}
	}
	post := r.blobs["post_state"]
	if changed {
		// the module reads the rules again only when nothing said changed
		if n := len(r.ran); n > 0 && r.ran[n-1] == "post_rules" {
			cmds = cmds[:n-1]
		}
	} else {
		changed = pre != post || r.blobs["pre_rules"] != r.blobs["post_rules"]
	}
	msg := strings.TrimRight(post, " \t\n\r\f\v")
	return tasks.Result{Changed: changed, Msg: msg, Data: map[string]any{"commands": cmds, "msg": msg}}
}

// judged is whether the module calls the task changed before reading
// the status again: state reloaded or reset, logging judged from the
// status before, and in check mode state, default and the rule's
// dry run judged too (ufw_check.go).
func (j *ufwJob) judged(preState, preRules, dry string) bool {
	a, changed := j.a, false
	for _, k := range j.commands() {
		switch k {
		case "state":
			changed = ufwStateChanged(a.Str("state"), preState, j.check) || changed
		case "default":
			if j.check {
				changed = ufwDefaultChanged(a.Str("default"), a.Str("direction"), preState) || changed
			}
		case "rule":
			if j.check {
				changed = ufwRuleChanged(a.Str("from_ip"), a.Str("to_ip"), preRules, dry) || changed
			}
		case "logging":
			changed = ufwLoggingChanged(a.Str("logging"), preState) || changed
		}
	}
	return changed
}
