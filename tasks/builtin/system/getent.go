package system

import (
	"context"
	_ "embed"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// getentModule reads a name service database with the host's getent and
// returns it as the fact getent_<database>, as Ansible's getent module
// does: each entry's first field maps to the list of the others (a list of
// such lists when a key repeats).
type getentModule struct{}

var _ tasks.Module = (*getentModule)(nil)

var getentArgs = &tasks.Spec{
	Module: "getent",
	Params: []tasks.Param{
		{Name: "database", Required: true},
		{Name: "key"},
		{Name: "service"},
		{Name: "split"},
		{Name: "fail_key", Kind: tasks.Bool, Default: true},
	},
}

// getentJob is one getent task: its decoded arguments and how a line
// of the database is split.
type getentJob struct {
	a        tasks.Values
	db, key  string
	split    string
	splitSet bool // split fields on split, not on runs of white space
}

// Run looks the database (or the key in it) up.
func (getentModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := getentArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := decodeGetent(a)
	// Direct: getent never outlives the script, whose stdout goes
	// straight into the answer; its stderr is empty but for getent's
	// own complaints.
	out, err := env.Conn.Run(ctx, transport.Cmd{Script: j.script(), Direct: true})
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(out), nil
}

// decodeGetent makes the job from getent's arguments, splitting the
// databases of colon-separated files on ":" unless split is given.
func decodeGetent(a tasks.Values) *getentJob {
	j := &getentJob{a: a, db: a.Str("database"), key: a.Str("key"), split: a.Str("split"), splitSet: a.Has("split")}
	switch j.db {
	case "passwd", "shadow", "group", "gshadow":
		if !j.splitSet {
			j.split, j.splitSet = ":", true
		}
	}
	return j
}

// script runs getent on the database, with the key and service asked
// for.
func (j *getentJob) script() string {
	a := j.a
	return shared.ShAssign([][2]string{{"_t_rcm", getentRCMark}, {"db", j.db}, {"key", j.key}, {"has_key", shared.BoolFlag(a.Has("key"))},
		{"service", a.Str("service")}, {"has_service", shared.BoolFlag(a.Has("service"))}}) + getentScript
}

// getentRCMark begins the script's last line, which carries getent's
// exit status.
const getentRCMark = "__T_GETENT_RC__="

// result turns getent's exit status (the script's last line, after
// getentRCMark) and output into the fact, or the failure Ansible reports
// for it.
func (j *getentJob) result(out transport.Result) tasks.Result {
	stdout := string(out.Stdout)
	i := strings.LastIndex(stdout, getentRCMark)
	if out.ExitCode != 0 || i < 0 || (i > 0 && stdout[i-1] != '\n') {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), Data: map[string]any{}}
	}
	rc, _ := strconv.Atoi(strings.TrimSpace(stdout[i+len(getentRCMark):]))
	switch rc {
	case 0:
		return tasks.Result{Data: map[string]any{"ansible_facts": j.facts(j.tree(stdout[:i]))}}
	case 1:
		return getentFail("Missing arguments, or database unknown.")
	case 2:
		msg := "One or more supplied key could not be found in the database."
		if !j.a.Bool("fail_key") {
			return tasks.Result{Msg: msg, Data: map[string]any{"ansible_facts": j.facts(map[string]any{j.key: nil}), "msg": msg}}
		}
		return getentFail(msg)
	case 3:
		return getentFail("Enumeration not supported on this database.")
	}
	return getentFail("Unexpected failure!")
}

// facts is the getent_<database> fact holding tree.
func (j *getentJob) facts(tree map[string]any) map[string]any {
	return map[string]any{"getent_" + j.db: tree}
}

// tree maps each entry's first field to the list of the others, or to a
// list of such lists when the first field repeats.
func (j *getentJob) tree(stdout string) map[string]any {
	tree := map[string]any{}
	seen := map[string]int{}
	for _, l := range shared.Lines(stdout) {
		var rec []string
		if j.splitSet {
			rec = strings.Split(l.(string), j.split)
		} else {
			rec = strings.Fields(l.(string))
		}
		if len(rec) == 0 {
			continue
		}
		rest := make([]any, 0, len(rec)-1)
		for _, f := range rec[1:] {
			rest = append(rest, f)
		}
		switch seen[rec[0]] {
		case 0:
			tree[rec[0]] = rest
		case 1:
			tree[rec[0]] = []any{tree[rec[0]], rest}
		default:
			tree[rec[0]] = append(tree[rec[0]].([]any), rest)
		}
		seen[rec[0]]++
	}
	return tree
}

// getentFail is getent's failed result with msg.
func getentFail(msg string) tasks.Result {
	return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}
}

func (getentModule) Spec() *tasks.Spec { return getentArgs }

// getentScript runs getent (getent.sh).
//
//go:embed getent.sh
var getentScript string
