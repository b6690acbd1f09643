package files

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// archiveModule creates a tar (plain, gz, bz2, xz) or zip archive, or one
// compressed file, of paths on the host, as community.general's archive
// does, with the host's tar, gzip, bzip2, xz and zip in place of
// Python's libraries. One round trip expands the paths and walks the
// directories (archiveProbeScript); the plan is made here as the
// module makes it; a second writes the archive, compares it with what
// dest held before (its members, as Ansible compares them), deletes the
// sources with remove and sets dest's attributes (archiveApplyScript).
type archiveModule struct{}

var _ tasks.Module = archiveModule{}

var archiveArgs = &tasks.Spec{
	Module: "archive",
	Params: append([]tasks.Param{
		{Name: "path", Kind: tasks.List, Elements: tasks.Path, Required: true},
		{Name: "format", Default: "gz", Choices: []string{"bz2", "gz", "tar", "xz", "zip"}},
		{Name: "dest", Kind: tasks.Path},
		{Name: "exclude_path", Kind: tasks.List, Elements: tasks.Path, Default: []any{}},
		{Name: "exclusion_patterns", Kind: tasks.List, Elements: tasks.Path},
		{Name: "force_archive", Kind: tasks.Bool, Default: false},
		{Name: "remove", Kind: tasks.Bool, Default: false},
	}, shared.AttrParams...),
}

// archiveProbeScript expands path, exclude_path and dest and walks the
// directory sources (see its header for what it prints).
//
//go:embed archive_probe.sh
var archiveProbeScript string

// archiveApplyScript writes the archive, compares, deletes and sets
// attributes (see its header for its inputs and what it prints).
//
//go:embed archive_apply.sh
var archiveApplyScript string

// Spec returns the module's argument specification.
func (archiveModule) Spec() *tasks.Spec { return archiveArgs }

// Run archives the paths as the task asks.
func (archiveModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := archiveArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return tasks.Result{}, err
	}
	paths, excludes, patterns := a.Strings("path"), a.Strings("exclude_path"), a.Strings("exclusion_patterns")
	for _, l := range [][]string{paths, excludes, patterns, {a.Str("dest")}} {
		for _, s := range l {
			if strings.ContainsAny(s, "\n\x00") {
				return tasks.Result{}, fmt.Errorf("archive: a path with a newline is not supported: %q", s)
			}
		}
	}
	format := a.Str("format")
	words := make([]string, 0, len(paths)+len(excludes))
	for _, p := range append(append([]string{}, paths...), excludes...) {
		words = append(words, shared.ShPath(p))
	}
	dest := ""
	if a.Str("dest") != "" {
		dest = shared.ShPath(a.Str("dest"))
	}
	script := shared.AttrFuncs + shared.ShAssign([][2]string{{"np", strconv.Itoa(len(paths))}}) +
		"dest=" + shared.OrDefault(dest, "''") + "\n" + shared.SetWords(words) + archiveProbeScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if out.ExitCode != 0 {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	probe := parseArchiveProbe(string(out.Stdout))
	pl, msg := planArchive(probe, format, a.Bool("force_archive"))
	joined := strings.Join(probe.params, ", ")
	switch {
	case msg != "" && len(pl.paths) == 0:
		data := map[string]any{"path": joined,
			"expanded_paths": strings.Join(probe.expanded, ", "), "expanded_exclude_paths": strings.Join(probe.excluded, ", ")}
		shared.InfoData(data, probe.v, "pi_")
		return tasks.Result{Failed: true, Msg: msg, Data: data}, nil
	case msg != "":
		data := map[string]any{"path": joined, "dest": "None"}
		shared.InfoData(data, probe.v, "pi_")
		return tasks.Result{Failed: true, Msg: msg, Data: data}, nil
	case a.Bool("remove") && pl.unsafeRemove(probe):
		data := map[string]any{"path": strings.Join(pl.paths, ", ")}
		shared.InfoData(data, probe.v, "ps_")
		return tasks.Result{Failed: true, Msg: "Error, created archive can not be contained in source paths when remove=true", Data: data}, nil
	}
	return archiveApply(ctx, env, a, pl, probe, patterns, mode)
}

// archiveApply runs the second round trip: what the module's main does
// once the plan is made.
func archiveApply(ctx context.Context, env *tasks.Env, a tasks.Values, pl archivePlan, probe archiveProbe,
	patterns []string, mode string) (tasks.Result, error) {
	how, single, state, checkChanged := "", false, "absent", false
	var removals []string
	switch {
	case len(pl.targets) == 0:
	case pl.mustArchive:
		if env.Check {
			checkChanged = true
			break
		}
		how, state = "archive", "archive"
		if len(pl.missing) > 0 {
			state = "incomplete"
		}
		pl.members(probe, patterns, false)
		if a.Bool("remove") {
			removals = pl.removalList(probe)
		}
	default:
		single = true
		if env.Check {
			break
		}
		how, state = "compress", "compress"
		if pl.format == "zip" || pl.format == "tar" {
			how, state = "archive", "archive"
			pl.members(probe, patterns, true)
		} else {
			pl.archived = []string{pl.paths[0]}
		}
		if a.Bool("remove") {
			removals = []string{"f:" + pl.paths[0]}
		}
	}
	vars := [][2]string{{"fmt", pl.format}, {"dest", pl.dest}, {"how", how}, {"root", shared.OrDefault(pl.root, ".")},
		{"src", pl.paths[0]}, {"single", shared.BoolFlag(single)}, {"check", shared.BoolFlag(env.Check)},
		{"mode", mode}, {"owner", a.Str("owner")}, {"group", a.Str("group")}}
	script := shared.AttrFuncs + shared.AttrAssign(a) + shared.ShAssign(vars) + shared.SetArgs(removals) + archiveApplyScript
	var stdin strings.Builder
	for _, n := range pl.names {
		stdin.WriteString(n + "\n")
	}
	out, err := shared.Run(ctx, env, script, strings.NewReader(stdin.String()))
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	if r, failed := archiveFailure(v, string(out.Stdout), pl, probe); failed {
		return r, nil
	}
	if out.ExitCode != 0 || v["changed"] == "" {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	if v["exists"] == "1" && len(pl.targets) == 0 {
		state = "compress"
		if isArchiveName(pl.dest) {
			state = "archive"
		}
	}
	if single && env.Check && v["exists"] != "1" {
		checkChanged = true
	}
	data := map[string]any{
		"archived": pyStrList(pl.archived), "dest": pl.dest, "dest_state": state, "arcroot": pl.root,
		"missing": pyStrList(pl.missing), "expanded_paths": pyStrList(probe.expanded),
		"expanded_exclude_paths": pyStrList(probe.excluded),
	}
	shared.InfoData(data, v, "pi_")
	return tasks.Result{Changed: checkChanged || v["changed"] == "1", Data: data}, nil
}

// archiveFailure turns the failures the apply script reported (v, and
// raw: its whole output, for the list of rmerr= lines) into the
// module's results: a dest that is no tar, an error writing or deleting,
// a missing program, or one of the exceptions the module does not catch
// (dest a directory, or in a missing directory).
func archiveFailure(v shared.Verdict, raw string, pl archivePlan, probe archiveProbe) (tasks.Result, bool) {
	switch {
	case v["sigfail"] != "":
		return shared.Fail(v["sigfail"]), true
	case v["crash"] != "":
		when, text, _ := strings.Cut(v["crash"], " ")
		e := shared.OSError(text, pl.dest)
		if when == "init" && pl.format != "zip" {
			e = fmt.Sprintf("[Errno %d] %s", shared.Errno(text), text)
		}
		return archiveCrash(text, e), true
	case v["wfail"] != "":
		data := map[string]any{"path": pl.paths[0], "dest": pl.dest}
		shared.InfoData(data, probe.v, "ps_")
		return tasks.Result{Failed: true, Msg: "Unable to write to compressed file: " + shared.OSError(v["wfail"], pl.dest), Data: data}, true
	case v["rmfail"] != "":
		data := map[string]any{"path": pl.paths[0]}
		return tasks.Result{Failed: true, Msg: "Unable to remove source file: " + shared.OSErrorBytes(v["rmfail"], pl.paths[0]), Data: data}, true
	case v["rmfailed"] != "":
		files := []any{}
		for _, line := range strings.Split(raw, "\n") {
			if p, ok := strings.CutPrefix(line, "rmerr="); ok {
				files = append(files, p)
			}
		}
		return tasks.Result{Failed: true, Msg: "Error deleting some source files: ", Data: map[string]any{"dest": pl.dest, "files": files}}, true
	case v["failed"] == "1":
		// setting dest's attributes failed (chown, chgrp, chmod, chattr)
		data := map[string]any{"path": pl.dest}
		shared.InfoData(data, v, "")
		return tasks.Result{Failed: true, Msg: strings.TrimSpace(v["msg"]), Data: shared.FailDetails(v, data)}, true
	case v["fail"] != "":
		return shared.Fail(strings.TrimSpace(v["fail"])), true
	}
	return tasks.Result{}, false
}

// archiveCrash is Ansible's MODULE FAILURE for an exception the module
// does not catch: an OSError whose strerror is text, shown as e.
func archiveCrash(text, e string) tasks.Result {
	cls := "OSError"
	switch shared.Errno(text) {
	case 2:
		cls = "FileNotFoundError"
	case 13:
		cls = "PermissionError"
	case 21:
		cls = "IsADirectoryError"
	}
	tb := "Traceback (most recent call last):\n  File \"ansible_collections/community/general/plugins/modules/archive.py\", in main\n" +
		cls + ": " + e + "\n"
	return tasks.Result{Failed: true, RC: 1, Msg: "MODULE FAILURE\nSee stdout/stderr for the exact error",
		Data: map[string]any{"rc": 1, "module_stdout": tb, "module_stderr": ""}}
}
