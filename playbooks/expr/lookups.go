package expr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/yaml11"
)

// lookup implements lookup(name, *terms, **kw) and query/q (wantList).
// As in Ansible, lookup() joins a list of strings with "," and unwraps a
// single non-string result; query() always returns the list. The result
// is unsafe unless allow_unsafe is given and not False (then lookup()
// returns the list too, as in ansible-core 2.14). errors=
// 'ignore' or 'warn' turn a failure of the plugin into None (lookup) or []
// (query), except an undefined variable, invalid options and an unknown
// plugin, which fail whatever errors= says.
func (ev *evaluator) lookup(args []any, kw map[string]any, wantList bool) (any, error) {
	if len(args) == 0 {
		return nil, errorf("lookup requires the name of a lookup plugin")
	}
	name := pluginName(Str(args[0]))
	if v, ok := kw["wantlist"]; ok {
		wantList = wantList || Truthy(v)
	}
	mode := "strict"
	if v, ok := kw["errors"]; ok {
		mode = Str(v)
	}
	opts := map[string]any{}
	for k, v := range kw {
		if k != "wantlist" && k != "errors" && k != "allow_unsafe" {
			opts[k] = v
		}
	}
	// The terms are templated again, as Ansible's lookup does
	// (listify_lookup_plugin_terms): lookup('pipe', 'echo {{ x }}') runs
	// echo with x's value. What came from a host (unsafe) is not.
	terms, err := renderDeep(append([]any{}, args[1:]...), ev.scope)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	ran, err := ev.runLookup(name, terms.([]any), opts)
	ev.st.b.exclude(t0)
	if err != nil {
		if (mode == "ignore" || mode == "warn") && !fatalLookupError(err) {
			if wantList {
				return []any{}, nil
			}
			return nil, nil
		}
		var ue *UndefinedError
		var pe *pyError
		var fe *fatalError
		var lf *lookupFailure
		var ae *ansibleError
		switch {
		case errors.As(err, &ue):
			return nil, err
		case errors.As(err, &ae):
			// Ansible's AnsibleError(msg, orig_exc=e) says its cause
			// again after its message.
			return nil, errorf("An unhandled exception occurred while running the lookup plugin '%s'. Error was a <class '%s'>, original message: %s. %s", name, ae.class, ae.msg, ae.msg)
		case errors.As(err, &fe):
			return nil, errorf("%s", fe.msg)
		case errors.As(err, &lf):
			return nil, errorf("%s", lf.msg)
		case errors.As(err, &pe):
			return nil, errorf("An unhandled exception occurred while running the lookup plugin '%s'. Error was: %s", name, err.Error())
		}
		return nil, fmt.Errorf("lookup %s: %w", name, err)
	}
	if allow, given := kw["allow_unsafe"]; len(ran) == 0 || given && allow != false {
		// ansible-core 2.14 returns the plugin's list as it is when
		// allow_unsafe is anything but False: lookup() too.
		return ran, nil
	}
	// What a lookup returns is unsafe, and so is the template that ran it.
	ev.st.unsafe = true
	ran = unsafeDeep(ran).([]any)
	if wantList {
		return ran, nil
	}
	parts := make([]string, len(ran))
	for i, r := range ran {
		s, ok := text(r)
		if !ok {
			if len(ran) == 1 {
				return ran[0], nil
			}
			return ran, nil
		}
		parts[i] = s
	}
	joined := strings.Join(parts, ",")
	if _, unsafe := ran[0].(yaml11.Unsafe); unsafe {
		return yaml11.Unsafe(joined), nil
	}
	if _, native := ran[0].(nativeUnsafe); native {
		return nativeUnsafe(joined), nil
	}
	if _, native := ran[0].(nativeText); native {
		return nativeText(joined), nil
	}
	return joined, nil
}

// fatalError is a lookup failure that errors='ignore' does not silence,
// as Ansible lets AnsibleOptionsError through: invalid options, an
// unknown plugin.
type fatalError struct{ msg string }

func (e *fatalError) Error() string { return e.msg }

func fatalf(format string, args ...any) error { return &fatalError{fmt.Sprintf(format, args...)} }

// ansibleError is a lookup's failure raised as one of Ansible's own
// exception classes (AnsibleError, AnsibleParserError): lookup() names
// the class, a with_ loop shows the message as it is.
type ansibleError struct{ class, msg string }

func (e *ansibleError) Error() string { return e.msg }

// ansibleErrorf is an AnsibleError with the message format gives.
func ansibleErrorf(format string, args ...any) error {
	return &ansibleError{"ansible.errors.AnsibleError", fmt.Sprintf(format, args...)}
}

// lookupFailure is a lookup's own failure, whose message Ansible shows as
// it is (AnsibleLookupError); errors='ignore' silences it.
type lookupFailure struct{ msg string }

func (e *lookupFailure) Error() string { return e.msg }

// fatalLookupError reports whether err fails a lookup whatever errors= says.
func fatalLookupError(err error) bool {
	var fe *fatalError
	var ue *UndefinedError
	var ce *CycleError
	var de *deniedError
	return errors.As(err, &fe) || errors.As(err, &ue) || errors.As(err, &ce) || errors.As(err, &de)
}

// RunLookup runs the named lookup plugin with terms and options and returns
// its list of results, as `query(name, *terms, **opts)` does; the engine
// uses it for `with_<name>:` loops. An error carries the plugin's own
// message (Ansible fails a with_ loop with it as is). Lookups that read
// variables (vars, template) see none here; RunLookupIn gives them a scope.
func RunLookup(env *Env, name string, terms []any, opts map[string]any) ([]any, error) {
	if env == nil {
		env = &Env{}
	}
	return RunLookupIn(envScope{env}, name, terms, opts)
}

// RunLookupIn is RunLookup with the variables of scope (and its Env) for
// the lookups that need them: vars reads variables by name, template
// renders a template file in scope.
func RunLookupIn(scope Scope, name string, terms []any, opts map[string]any) ([]any, error) {
	name = pluginName(name)
	out, err := newEvaluator(scope, "").runLookup(name, terms, opts)
	if err != nil {
		return nil, err
	}
	return plain(out).([]any), nil
}

// RunLoopLookupIn is RunLookupIn for a task's with_<name> loop: as
// ansible-core does for a loop's lookup, first_found looks in the
// subdirectory that the task's action names - templates for a template
// task, vars for include_vars (any action naming "var"), files
// otherwise.
func RunLoopLookupIn(scope Scope, name, action string, terms []any) ([]any, error) {
	ev := newEvaluator(scope, "")
	ev.subdir = "files"
	for _, s := range []string{"template", "var", "file"} {
		if strings.Contains(action, s) {
			ev.subdir = s + "s"
			break
		}
	}
	out, err := ev.runLookup(pluginName(name), terms, nil)
	if err != nil {
		return nil, err
	}
	return plain(out).([]any), nil
}

// envScope is a scope without variables that carries an Env.
type envScope struct{ env *Env }

func (e envScope) Lookup(string) (any, bool, error) { return nil, false, nil }
func (e envScope) LookupEnv() *Env                  { return e.env }

type lookupFunc func(ev *evaluator, terms []any, opts map[string]any) ([]any, error)

// lookupTable is every lookup plugin tender implements (a function rather
// than a table: the template lookup renders templates, which call
// lookups).
func lookupTable() map[string]lookupFunc {
	lookupsOnce.Do(func() { lookups = makeLookupTable() })
	return lookups
}

var (
	lookupsOnce sync.Once
	lookups     map[string]lookupFunc
)

func makeLookupTable() map[string]lookupFunc {
	return map[string]lookupFunc{
		"items":               func(_ *evaluator, terms []any, _ map[string]any) ([]any, error) { return flatten(terms, 1, false), nil },
		"list":                listLookup,
		"nested":              nestedLookup,
		"together":            togetherLookup,
		"subelements":         subelementsLookup,
		"random_choice":       randomChoiceLookup,
		"dict":                dictLookup,
		"env":                 envLookup,
		"file":                fileLookup,
		"fileglob":            fileglobLookup,
		"first_found":         firstFoundLookup,
		"ini":                 iniLookup,
		"sequence":            func(_ *evaluator, terms []any, _ map[string]any) ([]any, error) { return sequence(terms) },
		"lines":               commandLookup("lines"),
		"pipe":                commandLookup("pipe"),
		"password":            passwordLookup,
		"vars":                varsLookup,
		"template":            templateLookup,
		"indexed_items":       indexedItemsLookup,
		"csvfile":             csvfileLookup,
		"varnames":            varnamesLookup,
		"inventory_hostnames": inventoryHostnamesLookup,
		"config":              configLookup,
		"unvault":             unvaultLookup,
	}
}

// runLookup runs one lookup plugin in ev's scope; errors are the plugin's.
func (ev *evaluator) runLookup(name string, terms []any, opts map[string]any) ([]any, error) {
	run, ok := lookupOf(name)
	if !ok {
		env := envOf(ev.scope)
		if pl, ok := env.pluginLookup(name); ok {
			if err := env.checkLookup(name); err != nil {
				return nil, err
			}
			return pl(env, scopeVars(ev.scope), terms, opts)
		}
		if why := refusedReason("lookup", name); why != "" {
			return nil, fatalf("the lookup plugin '%s' is not supported by tender: %s", name, why)
		}
		return nil, fatalf("lookup plugin (%s) not found", name)
	}
	if err := envOf(ev.scope).checkLookup(name); err != nil {
		return nil, err
	}
	opts, err := lookupOptions(name, opts)
	if err != nil {
		return nil, err
	}
	return run(ev, terms, opts)
}

func envLookup(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
	env := envOf(ev.scope)
	out := []any{}
	var def any = ""
	if d, ok := opts["default"]; ok {
		def = d // of type raw: as it is
	}
	for _, t := range terms {
		if v, ok := getenv(env, Str(t)); ok {
			out = append(out, v)
		} else {
			out = append(out, def)
		}
	}
	return out, nil
}

func fileLookup(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
	files, err := readFiles(envOf(ev.scope), terms, func(name string) error {
		return ansibleErrorf("could not locate file in lookup: %s", name)
	})
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, s := range files {
		if v, ok := opts["rstrip"]; !ok || Truthy(v) {
			s = strings.TrimRight(s, " \t\r\n\v\f")
		}
		if Truthy(opts["lstrip"]) {
			s = strings.TrimLeft(s, " \t\r\n\v\f")
		}
		out = append(out, s)
	}
	return out, nil
}

func dictLookup(_ *evaluator, terms []any, _ map[string]any) ([]any, error) {
	out := []any{}
	for _, t := range terms {
		m, ok := t.(map[string]any)
		if !ok {
			return nil, errorf("with_dict expects a dict")
		}
		for _, k := range pydict.Keys(m) {
			out = append(out, map[string]any{"key": k, "value": m[k]})
		}
	}
	return out, nil
}

func fileglobLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	out := []any{}
	for _, t := range terms {
		found, err := fileglob(envOf(ev.scope), Str(t))
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// commandLookup is lines or pipe: run each term with /bin/sh on the
// controller (only when Env.AllowCommands).
func commandLookup(name string) lookupFunc {
	return func(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
		env := envOf(ev.scope)
		if !env.AllowCommands {
			return nil, errorf("the %s lookup runs commands on the controller and is disabled", name)
		}
		out := []any{}
		for _, t := range terms {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			cmd := exec.CommandContext(ctx, "/bin/sh", "-c", Str(t))
			cmd.Dir = env.BaseDir
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			err := cmd.Run()
			cancel()
			if err != nil {
				return nil, errorf("lookup_plugin.%s(%s) returned %v", name, Str(t), err)
			}
			if name == "pipe" {
				out = append(out, strings.TrimRight(stdout.String(), " \t\r\n"))
				continue
			}
			for _, l := range strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n") {
				if stdout.Len() > 0 {
					out = append(out, strings.TrimSuffix(l, "\r"))
				}
			}
		}
		return out, nil
	}
}

func passwordLookup(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
	out := []any{}
	for _, t := range terms {
		p, err := password(envOf(ev.scope), Str(t), opts)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// find resolves a file name as Ansible's find_file_in_search_path does for
// the "files" subdirectory.
func (env *Env) find(name string) (string, bool, error) { return env.findIn("files", name) }

// findIn looks for name in DIR/SUBDIR/NAME, then DIR/NAME, for each search
// path; a place the sandbox does not let it look is an error.
func (env *Env) findIn(subdir, name string) (string, bool, error) {
	if filepath.IsAbs(name) {
		if err := env.checkRead(name); err != nil {
			return "", false, err
		}
		_, err := os.Stat(name)
		return name, err == nil, nil
	}
	for _, dir := range env.searchPaths() {
		for _, p := range []string{filepath.Join(dir, subdir, name), filepath.Join(dir, name)} {
			if err := env.checkRead(p); err != nil {
				return "", false, err
			}
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, true, nil
			}
		}
	}
	return "", false, nil
}

func (env *Env) searchPaths() []string {
	if len(env.SearchPaths) > 0 {
		return env.SearchPaths
	}
	if env.BaseDir != "" {
		return []string{env.BaseDir}
	}
	return []string{"."}
}

func fileglob(env *Env, pattern string) ([]any, error) {
	var dirs []string
	if filepath.IsAbs(pattern) {
		dirs = []string{""}
	} else {
		for _, d := range env.searchPaths() {
			dirs = append(dirs, filepath.Join(d, "files"), d)
		}
	}
	for _, d := range dirs {
		if err := env.checkRead(globRoot(filepath.Join(d, pattern))); err != nil {
			return nil, err
		}
		matches, _ := filepath.Glob(filepath.Join(d, pattern))
		sort.Strings(matches)
		out := []any{}
		for _, m := range matches {
			if err := env.checkRead(m); err != nil {
				return nil, err
			}
			if st, err := os.Stat(m); err == nil && !st.IsDir() {
				abs, err := filepath.Abs(m)
				if err != nil {
					abs = m
				}
				out = append(out, abs)
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	return nil, nil
}
