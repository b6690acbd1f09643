package system

import (
	"context"
	_ "embed"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
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

// Run looks the database (or the key in it) up.
func (getentModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := getentArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	db, key := a.Str("database"), a.Str("key")
	script := shared.ShAssign([][2]string{{"db", db}, {"key", key}, {"has_key", shared.BoolFlag(a.Has("key"))},
		{"service", a.Str("service")}, {"has_service", shared.BoolFlag(a.Has("service"))}}) + getentScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	stderr := string(res.Stderr)
	i := strings.LastIndex(stderr, "rc=")
	if res.ExitCode != 0 || i < 0 {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}}, nil
	}
	rc, _ := strconv.Atoi(strings.TrimSpace(stderr[i+3:]))
	split, splitSet := a.Str("split"), a.Has("split")
	switch db {
	case "passwd", "shadow", "group", "gshadow":
		if !splitSet {
			split, splitSet = ":", true
		}
	}
	tree := map[string]any{}
	facts := map[string]any{"getent_" + db: tree}
	switch rc {
	case 0:
		seen := map[string]int{}
		for _, l := range shared.Lines(string(res.Stdout)) {
			var rec []string
			if splitSet {
				rec = strings.Split(l.(string), split)
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
		return tasks.Result{Data: map[string]any{"ansible_facts": facts}}, nil
	case 1:
		return getentFail("Missing arguments, or database unknown.")
	case 2:
		msg := "One or more supplied key could not be found in the database."
		if !a.Bool("fail_key") {
			tree[key] = nil
			return tasks.Result{Msg: msg, Data: map[string]any{"ansible_facts": facts, "msg": msg}}, nil
		}
		return getentFail(msg)
	case 3:
		return getentFail("Enumeration not supported on this database.")
	}
	return getentFail("Unexpected failure!")
}

func getentFail(msg string) (tasks.Result, error) {
	return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
}

func (getentModule) Spec() *tasks.Spec { return getentArgs }

// getentScript runs getent (getent.sh).
//
//go:embed getent.sh
var getentScript string
