package net

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// firewalldModule is ansible.posix's firewalld, driving firewalld through
// its own command line rather than its Python bindings: firewall-cmd
// while the daemon runs, firewall-offline-cmd (permanent settings only)
// when it does not, as the module falls back to firewalld's offline
// configuration.
//
// A task is at most one transaction (the setting parameters are
// mutually exclusive) or, with state present or absent and no setting,
// the zone itself. Each transaction reads the setting permanently and,
// when immediate, in the running firewall, then changes whichever
// differs from the state asked for, permanent first, and says so in msg
// as the module does. Reading and changing are one round trip each; a
// task that changes nothing costs one.
type firewalldModule struct{}

var _ tasks.Module = firewalldModule{}

// firewalldSettings are the parameters of which a task gives at most
// one, in the order the module reads them.
var firewalldSettings = []string{"icmp_block", "icmp_block_inversion", "service", "protocol", "port", "port_forward",
	"rich_rule", "interface", "masquerade", "source", "target"}

var firewalldArgs = &tasks.Spec{
	Module: "firewalld",
	Params: []tasks.Param{
		{Name: "icmp_block"},
		{Name: "icmp_block_inversion"},
		{Name: "service"},
		{Name: "protocol"},
		{Name: "port"},
		{Name: "port_forward", Kind: tasks.List, Elements: tasks.Dict},
		{Name: "rich_rule"},
		{Name: "zone"},
		{Name: "immediate", Kind: tasks.Bool, Default: false},
		{Name: "source"},
		{Name: "permanent", Kind: tasks.Bool},
		{Name: "state", Required: true, Choices: []string{"absent", "disabled", "enabled", "present"}},
		{Name: "timeout", Kind: tasks.Int, Default: 0},
		{Name: "interface"},
		{Name: "masquerade"},
		{Name: "offline", Kind: tasks.Bool},
		{Name: "target", Choices: []string{"default", "ACCEPT", "DROP", "%%REJECT%%"}},
	},
	MutuallyExclusive: [][]string{firewalldSettings},
}

// Spec returns firewalld's parameters.
func (firewalldModule) Spec() *tasks.Spec { return firewalldArgs }

// firewalldRequiredBy are the module's required_by pairs, in its order.
var firewalldRequiredBy = [][2]string{{"interface", "zone"}, {"target", "zone"}, {"source", "permanent"}}

// Run reads the setting, changes it when it differs, and reports.
func (firewalldModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := firewalldArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	for _, rb := range firewalldRequiredBy {
		if a.Has(rb[0]) && !a.Has(rb[1]) {
			return tasks.Result{}, fmt.Errorf("missing parameter(s) required by '%s': %s", rb[0], rb[1])
		}
	}
	j := newFirewalldJob(a, env.Check)
	out, err := shared.Run(ctx, env, j.readScript(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	h := shared.ParseBlobMap(out.Stdout)
	if r, done := j.afterRead(h, out); done {
		return r, nil
	}
	steps := j.decide(h)
	if j.failMsg != "" {
		return j.failed(j.failMsg), nil
	}
	if len(steps) > 0 && j.check {
		return tasks.Result{Changed: true, Data: map[string]any{}}, nil
	}
	if len(steps) > 0 {
		out, err := shared.Run(ctx, env, j.applyScript(steps), nil)
		if err != nil {
			return tasks.Result{}, err
		}
		if r, failed := j.afterApply(shared.ParseBlobMap(out.Stdout), out); failed {
			return r, nil
		}
	}
	return j.finish(steps), nil
}

// firewalldJob is one task: its arguments as the module reads them, the
// transaction they make, and the messages gathered so far.
type firewalldJob struct {
	a          tasks.Values
	check      bool
	permanent  bool
	immediate  bool
	state      string // the state the transaction moves to (masquerade and icmp_block_inversion invert it)
	tx         *fwTx  // nil: no transaction (a zone given with enabled or disabled alone)
	argErr     string // an argument error the module finds after its sanity checks
	warnings   []string
	msgs       []string
	failMsg    string
	offline    bool
	zone       string
	portText   string // port/protocol, as the module names it
	fwdText    string // port=…:proto=…:toport=…:toaddr=…, as the module names it
	settingVal string // the raw value of the setting (messages)
}

// newFirewalldJob reads the arguments as the module's main does.
func newFirewalldJob(a tasks.Values, check bool) *firewalldJob {
	j := &firewalldJob{a: a, check: check, state: a.Str("state")}
	j.permanent = a.Bool("permanent")
	j.immediate = a.Bool("immediate")
	if !j.permanent && !j.immediate {
		j.immediate = true
	}
	j.argErr = j.readArgs()
	return j
}

// readArgs checks port and port_forward, and picks the transaction; it
// returns the module's message for arguments it refuses.
func (j *firewalldJob) readArgs() string {
	a := j.a
	port, proto := "", ""
	if a.Has("port") {
		p := strings.TrimSpace(a.Str("port"))
		parts := strings.Split(p, "/")
		if len(parts) > 2 {
			return fmt.Sprintf("the port %q holds more than one '/': give PORT/PROTOCOL or PORT-PORT/PROTOCOL", a.Str("port"))
		}
		if len(parts) == 2 {
			port, proto = parts[0], parts[1]
		}
		if proto == "" {
			return "improper port format (missing protocol?)"
		}
		j.portText = port + "/" + proto
	}
	var fwd map[string]any
	if a.Has("port_forward") {
		l := a.List("port_forward")
		switch {
		case len(l) > 1:
			return "Only one port forward supported at a time"
		case len(l) == 0:
			return "port_forward is an empty list: give one port forward"
		}
		fwd, _ = l[0].(map[string]any)
		for _, k := range [][2]string{{"port", "port must be specified for port forward"},
			{"proto", "proto udp/tcp must be specified for port forward"}, {"toport", "toport must be specified for port forward"}} {
			if _, ok := fwd[k[0]]; !ok {
				return k[1]
			}
		}
		toaddr := ""
		if v, ok := fwd["toaddr"]; ok {
			toaddr = expr.Str(v)
		}
		j.fwdText = fmt.Sprintf("port=%s:proto=%s:toport=%s:toaddr=%s", expr.Str(fwd["port"]), expr.Str(fwd["proto"]),
			expr.Str(fwd["toport"]), toaddr)
	}
	modification := false
	for _, k := range firewalldSettings {
		if shared.Truthy(a[k]) {
			modification = true
		}
	}
	if modification && (j.state == "absent" || j.state == "present") && !a.Has("target") {
		return "absent and present state can only be used in zone level operations"
	}
	for _, k := range firewalldSettings {
		if a.Has(k) {
			j.settingVal = a.Str(k)
			j.tx = fwTransaction(j, k, port, proto, fwd)
			return ""
		}
	}
	if !modification && (j.state == "absent" || j.state == "present") {
		j.tx = fwZoneTx()
	}
	return ""
}

// fwBoolish is the module's reading of masquerade and
// icmp_block_inversion: Ansible's boolean, or true with a warning for
// any other value.
func (j *firewalldJob) fwBoolish(name string) bool {
	b, err := tasks.ParseBool(j.a[name])
	if err != nil {
		j.warnings = append(j.warnings, fmt.Sprintf("The value of the %s option is \"%s\". The type of the option will be "+
			"changed from string to boolean in a future release. To avoid unexpected behavior, please change the value to boolean.",
			name, j.a.Str(name)))
		return true
	}
	return b
}

// failed is a failed result with msg and the warnings so far.
func (j *firewalldJob) failed(msg string) tasks.Result {
	r := shared.Fail(msg)
	r.Warnings = j.warnings
	return r
}

// finish is the result once the transaction made its changes (steps).
func (j *firewalldJob) finish(steps []fwStep) tasks.Result {
	msgs, changed, tx := j.msgs, len(steps) > 0, j.tx
	if changed {
		say := tx.disabledMsg
		if steps[0].enable {
			say = tx.enabledMsg
		}
		if say != nil {
			msgs = append(msgs, say(j.zone))
		}
		if tx.changedMsg != nil {
			msgs = append(msgs, tx.changedMsg(j))
		}
	}
	if j.offline {
		msgs = append(msgs, "(offline operation: only on-disk configs were altered)")
	}
	msg := strings.Join(msgs, ", ")
	return tasks.Result{Changed: changed, Msg: msg, Warnings: j.warnings, Data: map[string]any{"msg": msg}}
}
