package provision

import (
	"errors"
	"fmt"

	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// scope builds the variables a task sees on a host, in Ansible's order of
// precedence (lowest first): the play's public roles' defaults, the
// task's roles' defaults, inventory vars, facts, play vars, vars_files,
// the public roles' vars, the task's roles' vars, block and task vars, include_vars, set_fact
// and register results, role params, include params (the vars: of
// enclosing includes), the loop variables of enclosing includes, extra
// vars, then the magic variables and the loop variables in extra. t may be
// nil (play-level templating).
func (pr *playRun) scope(h *hostRun, t *playbooks.Task, extra map[string]any) *expr.Vars {
	var defaults, roleVars, levelVars, params, incParams []map[string]any
	var role *playbooks.Role
	var roles []*playbooks.Role
	var parentNames, parentPaths []any
	if t != nil {
		for _, l := range t.Levels() {
			if l.Task != nil && l.Task.Role != nil && (l.Task.Kind == playbooks.KindIncludeRole || l.Task.Kind == playbooks.KindImportRole) {
				// ansible_parent_role_names and _paths: the roles whose
				// include_role or import_role brought the task in,
				// nearest first.
				parentNames = append([]any{l.Task.Role.Name}, parentNames...)
				parentPaths = append([]any{pr.rn.abs(l.Task.Role.Path)}, parentPaths...)
			}
			if l.Role != nil {
				role = l.Role
				roles = append(roles, l.Role)
				defaults = append(defaults, l.Role.Defaults)
				params = append(params, l.Role.Params)
			}
			if len(l.Vars) > 0 && l.Role == nil {
				// A role use's vars: (a roles: entry's, a dependency's)
				// are the role's own, below its vars/main.yml (see
				// roleVars), not a level's.
				levelVars = append(levelVars, l.Vars)
				if p := includeParams(l.Task); p != nil {
					incParams = append(incParams, p)
				}
			}
		}
	}
	for i, r := range roles {
		if i == len(roles)-1 {
			// As Ansible's: the task's own role's vars sit above those
			// of its dependencies (all of them, deepest first), which
			// sit above its parents'.
			roleVars = append(roleVars, dependencyVars(r)...)
		}
		roleVars = append(roleVars, r.Vars, r.RoleVars)
	}
	public := pr.public.Load()
	if public == nil {
		public = &publicVars{}
	}
	layers := make([]map[string]any, 0, 16+len(public.defaults)+len(public.vars))
	layers = append(layers, public.defaults...)
	layers = append(layers, defaults...)
	invVars, _ := h.inventory()
	layers = append(layers, invVars, h.factVars(), pr.play.Vars)
	layers = pr.appendVarsFiles(layers, h, t)
	layers = append(layers, public.vars...)
	layers = append(layers, roleVars...)
	layers = append(layers, levelVars...)
	layers = append(layers, h.includedVars, h.setFacts)
	layers = append(layers, params...)
	layers = append(layers, incParams...)
	if parentNames != nil {
		layers = append(layers, map[string]any{"ansible_parent_role_names": parentNames, "ansible_parent_role_paths": parentPaths})
	}
	layers = append(layers, h.incVars...)
	magic := pr.magic(h, role)
	magic["ansible_search_path"] = pr.searchPath(t, role)
	layers = append(layers, pr.rn.r.ExtraVars, magic)
	magic["vars"] = rawVars(slices.Clip(layers))
	layers = append(layers, extra)
	v := expr.NewVars(layers...)
	v.Merge = pr.rn.r.HashMerge
	v.Env = pr.lookupEnv(t, role, v)
	if c := h.ahead.capturing; c != nil && v.Env != nil {
		// A task evaluated ahead of its turn (capture).
		e := *v.Env
		e.Pure = c.pure
		v.Env = &e
	}
	if t != nil {
		if c := pr.connectionVars(h, t, v); c != nil {
			v.Layers = append([]map[string]any{c}, v.Layers...)
		}
	}
	return v
}

// includeParams are the vars: of an include (include_tasks, include_role,
// the old include), which Ansible passes to the included tasks above
// set_fact and role params ("include params"); nil for other levels. The
// old include's k=v arguments are task vars only.
func includeParams(t *playbooks.Task) map[string]any {
	if t == nil || (t.Kind != playbooks.KindIncludeTasks && t.Kind != playbooks.KindIncludeRole && !t.OldInclude()) {
		return nil
	}
	if !t.OldInclude() {
		return t.Vars
	}
	out := map[string]any{}
	for k, v := range t.Vars {
		if _, isArg := t.Args[k]; !isArg {
			out[k] = v
		}
	}
	return out
}

// magic returns the variables Ansible defines itself.
func (pr *playRun) magic(h *hostRun, role *playbooks.Role) map[string]any {
	m := pr.playMagic()
	m["inventory_hostname"] = h.names.value(h.name)
	m["inventory_hostname_short"] = (*h.snap.Load())["inventory_hostname_short"]
	m["group_names"] = (*h.snap.Load())["group_names"]
	if role != nil {
		m["role_name"] = role.Name
		m["ansible_role_name"] = role.Name
		m["role_path"] = role.Path
		// The collection the role came from: none, for a role of roles/
		// (tender does not load roles from collections).
		m["ansible_collection_name"] = nil
	}
	return m
}

// playScope is the scope of what Ansible templates once per play, for
// no host: the public roles' defaults, the play's vars and vars_files,
// the public roles' vars, the extra vars and the magic variables that do
// not name a host.
func (pr *playRun) playScope() *expr.Vars {
	public := pr.public.Load()
	if public == nil {
		public = &publicVars{}
	}
	layers := slices.Clone(public.defaults)
	layers = append(layers, pr.play.Vars)
	layers = append(layers, pr.varsFiles...)
	layers = append(layers, public.vars...)
	magic := pr.playMagic()
	layers = append(layers, pr.rn.r.ExtraVars, magic)
	magic["vars"] = rawVars(slices.Clip(layers))
	return pr.rn.playVars(pr.done, layers...)
}

// playMagic returns the variables Ansible defines itself that do not
// name a host: those of what it templates once per play.
func (pr *playRun) playMagic() map[string]any {
	hosts, batch := pr.playHosts.lists()
	m := map[string]any{
		"groups":                 *pr.groups.Load(),
		"hostvars":               hostvarsScope{pr},
		"playbook_dir":           pr.rn.abs(pr.rn.pb.Dir),
		"play_hosts":             batch,
		"ansible_play_hosts":     hosts,
		"ansible_play_batch":     batch,
		"ansible_play_hosts_all": pr.allNames,
		"ansible_play_name":      pr.name,
		"ansible_check_mode":     pr.rn.r.Check,
		"ansible_diff_mode":      pr.rn.r.Diff,
		"ansible_forks":          pr.rn.forks(),
		"ansible_verbosity":      pr.rn.r.Verbosity,
		"ansible_run_tags":       runTags(pr.rn.r.Tags.Only, "all"),
		"ansible_skip_tags":      runTags(pr.rn.r.Tags.Skip, ""),
		"ansible_version":        ansibleVersion(),
		"omit":                   expr.Omit,
	}
	for k, v := range *pr.roleVars.Load() {
		m[k] = v
	}
	if pr.rn.r.Limit != "" {
		m["ansible_limit"] = pr.rn.r.Limit
	}
	if src := pr.rn.r.InventorySources; src != nil {
		m["ansible_inventory_sources"] = slices.Clone(src)
	}
	if f := pr.rn.r.config().File(); f != "" {
		m["ansible_config_file"] = f
	} else {
		m["ansible_config_file"] = nil
	}
	if py := controllerPython(); py != "" {
		m["ansible_playbook_python"] = py
	}
	return m
}

// controllerPython is ansible_playbook_python: Ansible gives the Python
// that runs it, on the controller; tender runs no Python, and gives the
// controller's python3 (found on PATH), which a playbook that names it
// (a virtualenv's interpreter, a local script) expects to run; none
// leaves the variable undefined.
func controllerPython() string {
	pythonOnce.Do(func() {
		if p, err := exec.LookPath("python3"); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				pythonPath = abs
			}
		}
	})
	return pythonPath
}

var (
	pythonOnce sync.Once
	pythonPath string
)

// ansibleVersion is the ansible_version magic variable.
func ansibleVersion() map[string]any {
	v := map[string]any{"string": config.AnsibleVersion, "full": config.AnsibleVersion}
	var major, minor, rev int
	fmt.Sscanf(config.AnsibleVersion, "%d.%d.%d", &major, &minor, &rev)
	v["major"], v["minor"], v["revision"] = major, minor, rev
	return v
}

// runTags is ansible_run_tags or ansible_skip_tags: the tags given, each
// once, or def alone when none were (nothing for "").
func runTags(given []string, def string) []any {
	out := []any{}
	seen := map[string]bool{}
	for _, t := range given {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 && def != "" {
		out = append(out, def)
	}
	return out
}

// searchPath is ansible_search_path: the directories relative paths of
// lookups start from, as Ansible orders them: the task's role, the roles
// that depend on it (nearest first), the directory of the task's file,
// then the playbook's directory.
func (pr *playRun) searchPath(t *playbooks.Task, role *playbooks.Role) []any {
	var out []any
	add := func(dir string) {
		dir = pr.rn.abs(dir)
		for _, d := range out {
			if d == dir {
				return
			}
		}
		out = append(out, dir)
	}
	for r := role; r != nil; r = r.Parent {
		add(r.Path)
	}
	if t != nil && t.Pos.File != "" {
		add(filepath.Dir(t.Pos.File))
	}
	add(pr.rn.pb.Dir)
	return out
}

// abs is filepath.Abs against the run's working directory, without asking
// the system for it each time.
func (rn *run) abs(dir string) string {
	if filepath.IsAbs(dir) || rn.cwd == "" {
		return filepath.Clean(dir)
	}
	return filepath.Join(rn.cwd, dir)
}

// roleNames are the play's role-name magic variables: role_names and
// ansible_play_role_names (the play's roles as Ansible's play holds them:
// roles: and every role import_role loads, repeats kept),
// ansible_dependent_role_names (their dependencies, each once) and
// ansible_role_names (both, each once). extra are roles include_role
// loaded with public: true, which join the play's roles when they run.
func (pr *playRun) roleNames(extra ...*playbooks.Role) map[string]any {
	play, deps, all := []any{}, []any{}, []any{}
	seenDep, seenAll := map[string]bool{}, map[string]bool{}
	var walk func(r *playbooks.Role)
	walk = func(r *playbooks.Role) {
		for _, d := range r.Dependencies {
			if !seenDep[d.Name] {
				seenDep[d.Name] = true
				deps = append(deps, d.Name)
			}
			walk(d)
		}
	}
	for _, r := range append(pr.play.PublicRoles(), extra...) {
		play = append(play, r.Name)
		walk(r)
	}
	for _, n := range append(append([]any{}, play...), deps...) {
		if !seenAll[n.(string)] {
			seenAll[n.(string)] = true
			all = append(all, n)
		}
	}
	return map[string]any{"role_names": play, "ansible_play_role_names": play,
		"ansible_dependent_role_names": deps, "ansible_role_names": all}
}

// implicitLocal returns the implicit localhost's state (made on first
// use), or nil when the inventory defines localhost. The caller holds
// rn.mu.
func (rn *run) implicitLocal() *hostRun {
	if rn.implicit != nil {
		return rn.implicit
	}
	inv := rn.r.Inventory
	if inv.Host("localhost") != nil {
		return nil
	}
	hs, err := inv.Match([]string{"localhost"})
	if err != nil || len(hs) != 1 {
		return nil
	}
	if hr, err := newHostRun(inv, hs[0], &rn.names, &rn.share, rn.r.HashMerge); err == nil {
		rn.implicit = hr
	}
	return rn.implicit
}

// lookupEnv is what lookups need from the run: the directories of
// ansible_search_path (searchPath), in its order, for file, first_found,
// ...; the configuration for config, as a task in scope sees it; and a way
// to warn, as a Warning event printed once per run (Ansible prints a
// warning once).
func (pr *playRun) lookupEnv(t *playbooks.Task, role *playbooks.Role, scope expr.Scope) *expr.Env {
	env := pr.rn.exprEnv(pr.done)
	// A remote_user keyword that reads the config lookup while it renders
	// is unset there, rather than recursing.
	var busy atomic.Bool
	remoteUser := func() string {
		if !busy.CompareAndSwap(false, true) {
			return ""
		}
		defer busy.Store(false)
		return pr.remoteUserIn(t, scope)
	}
	env.Config = pr.rn.r.config().ForTask(remoteUser, scope.Lookup)
	task := ""
	if t != nil {
		task = t.DisplayName()
	}
	env.Warn = func(msg string) { pr.rn.warnOnce(Event{Kind: Warning, Play: pr.name, Task: task, Msg: msg}) }
	for _, d := range pr.searchPath(t, role) {
		env.SearchPaths = append(env.SearchPaths, d.(string))
	}
	return env
}

// loadVarsFiles reads a play's vars_files: each entry is a path, or a list
// of paths of which the first that exists is read. Paths may be templates
// loadVarsFiles reads the play's vars_files whose names render in the
// play's scope: each entry is a file, or a list of candidates of which
// the first that exists is read. An entry whose name uses a variable the
// play's scope does not have (a host's variable, a fact) is read for
// each host as its scope is made (appendVarsFiles), as Ansible templates
// vars_files with each host's variables.
func (pr *playRun) loadVarsFiles(scope expr.Scope) ([]varsFileSlot, error) {
	var out []varsFileSlot
	for _, entry := range pr.play.VarsFiles {
		candidates, ok := entry.([]any)
		if !ok {
			candidates = []any{entry}
		}
		var found bool
		var tried []string
		var u *expr.UndefinedError
		for _, c := range candidates {
			v, err := expr.RenderDeep(c, scope)
			if errors.As(err, &u) {
				out = append(out, varsFileSlot{raw: entry})
				found = true
				break
			}
			if err != nil {
				return nil, fmt.Errorf("vars_files: %w", err)
			}
			path := pr.varsFilePath(expr.Str(v))
			tried = append(tried, path)
			if err := pr.rn.r.Sandbox.CheckRead(path); err != nil {
				return nil, fmt.Errorf("vars_files: %w", err)
			}
			if _, err := os.Stat(path); err != nil && len(candidates) > 1 {
				continue
			}
			layers, err := pr.readVarsFile(path)
			if err != nil {
				return nil, err
			}
			out = append(out, varsFileSlot{layers: layers})
			found = true
			break
		}
		if !found {
			return nil, fmt.Errorf("vars_files: none of %v exists", tried)
		}
	}
	return out, nil
}

// varsFileSlot is one entry of a play's vars_files: the variables read
// at the play's start, or the entry as written, read for each host.
type varsFileSlot struct {
	layers []map[string]any
	raw    any
}

// loadedVarsFiles are the layers of the vars_files read at the play's
// start.
func loadedVarsFiles(slots []varsFileSlot) []map[string]any {
	var out []map[string]any
	for _, s := range slots {
		out = append(out, s.layers...)
	}
	return out
}

// varsFilePath is a vars_files name as a path: relative to the
// playbook's directory.
func (pr *playRun) varsFilePath(name string) string {
	if !filepath.IsAbs(name) {
		return filepath.Join(pr.rn.pb.Dir, name)
	}
	return name
}

// readVarsFile reads one vars file (vault-encrypted or not), once per
// play: hosts whose entries name the same file share it.
func (pr *playRun) readVarsFile(path string) ([]map[string]any, error) {
	if v, ok := pr.varsFileCache.Load(path); ok {
		return v.([]map[string]any), nil
	}
	data, err := pr.rn.r.Sandbox.ReadVaultFile(path)
	if err != nil {
		return nil, fmt.Errorf("vars file: %w", err)
	}
	dec := yaml11.NewDecoder()
	dec.Decrypt = pr.rn.r.Decrypt
	dec.Duplicates = pr.rn.r.DuplicateKeys
	dec.Warn = func(msg string) { pr.rn.warnOnce(Event{Kind: Warning, Play: pr.name, Msg: msg}) }
	name := path
	if a, err := filepath.Abs(path); err == nil {
		name = a // as Ansible names the file in its warnings
	}
	ms, err := dec.VarsList(data, name)
	if err != nil {
		return nil, err
	}
	pr.varsFileCache.Store(path, ms)
	return ms, nil
}

// appendVarsFiles adds the play's vars_files to a host's layers (those
// below them given): the ones read at the start, and each entry read for
// the host, rendered in its scope so far, as Ansible's: an entry that
// uses an undefined variable is passed over until the host's facts were
// gathered, then ends the run, as does an entry none of whose files
// exists.
func (pr *playRun) appendVarsFiles(layers []map[string]any, h *hostRun, t *playbooks.Task) []map[string]any {
	for _, slot := range pr.varsFileSlots {
		if slot.raw == nil {
			layers = append(layers, slot.layers...)
			continue
		}
		candidates, ok := slot.raw.([]any)
		if !ok {
			candidates = []any{slot.raw}
		}
		magic := pr.magic(h, nil)
		scope := expr.NewVars(append(slices.Clip(layers), pr.rn.r.ExtraVars, magic)...)
		scope.Merge = pr.rn.r.HashMerge
		scope.Env = pr.rn.exprEnv(pr.done)
		layers = append(layers, pr.hostVarsFile(h, t, slot.raw, candidates, scope)...)
	}
	return layers
}

// hostVarsFile reads a deferred vars_files entry for h.
func (pr *playRun) hostVarsFile(h *hostRun, t *playbooks.Task, raw any, candidates []any, scope expr.Scope) []map[string]any {
	for _, c := range candidates {
		v, err := expr.RenderDeep(c, scope)
		var u *expr.UndefinedError
		switch {
		case errors.As(err, &u):
			if h.gathered && t != nil {
				pr.endRun(fmt.Errorf("an undefined variable was found when attempting to template the vars_files item '%s'", expr.Str(c)))
			}
			return nil
		case err != nil:
			pr.endRun(fmt.Errorf("vars_files: %w", err))
			return nil
		}
		name := expr.Str(v)
		if tasks.IsMarked(v) && (filepath.IsAbs(name) || slices.Contains(strings.Split(filepath.ToSlash(name), "/"), "..")) {
			// A host's data (a fact) may pick a vars file in the
			// playbook's tree, not one anywhere on the controller.
			pr.endRun(fmt.Errorf("vars_files: the name %q comes from a host or a lookup (it is marked unsafe) and leaves the playbook's directory: tender does not let such data choose a controller file elsewhere", name))
			return nil
		}
		path := pr.varsFilePath(name)
		if err := pr.rn.r.Sandbox.CheckRead(path); err != nil {
			pr.endRun(fmt.Errorf("vars_files: %w", err))
			return nil
		}
		if _, err := os.Stat(path); err != nil {
			continue
		}
		layers, err := pr.readVarsFile(path)
		if err != nil {
			pr.endRun(err)
			return nil
		}
		return layers
	}
	pr.endRun(fmt.Errorf("vars file %s was not found", expr.Str(raw)))
	return nil
}

// dependencyVars are the vars of r's dependencies, each one's own
// dependencies' before its own, as Ansible's role layers them.
func dependencyVars(r *playbooks.Role) []map[string]any {
	var out []map[string]any
	for _, d := range allDependencies(r) {
		out = append(out, d.Vars, d.RoleVars)
	}
	return out
}
