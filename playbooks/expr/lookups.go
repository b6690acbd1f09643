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
	"time"
)

// lookup implements lookup(name, *terms, **kw) and query/q (wantList).
// As in Ansible, lookup() joins a list of strings with "," and unwraps a
// single non-string result; query() always returns the list.
func (ev *evaluator) lookup(args []any, kw map[string]any, wantList bool) (any, error) {
	if len(args) == 0 {
		return nil, errorf("lookup requires the name of a lookup plugin")
	}
	name := strings.TrimPrefix(strings.TrimPrefix(Str(args[0]), "ansible.builtin."), "ansible.legacy.")
	if v, ok := kw["wantlist"]; ok {
		wantList = wantList || Truthy(v)
	}
	mode := "strict"
	if v, ok := kw["errors"]; ok {
		mode = Str(v)
	}
	opts := map[string]any{}
	for k, v := range kw {
		if k != "wantlist" && k != "errors" {
			opts[k] = v
		}
	}
	var ran []any
	var err error
	switch name {
	case "vars", "template":
		ran, err = ev.scopedLookup(name, args[1:], opts)
	default:
		ran, err = RunLookup(envOf(ev.scope), name, args[1:], opts)
	}
	if err != nil {
		if mode == "ignore" || mode == "warn" {
			if wantList {
				return []any{}, nil
			}
			return nil, nil
		}
		return nil, err
	}
	if wantList || len(ran) == 0 {
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
	return strings.Join(parts, ","), nil
}

// RunLookup runs the named lookup plugin (file, env, first_found, items,
// sequence, dict, fileglob, lines, pipe, password) with terms and options and
// returns its list of results, as `query(name, *terms, **opts)` does. The
// engine uses it for `with_<name>:` loops.
func RunLookup(env *Env, name string, terms []any, opts map[string]any) ([]any, error) {
	if env == nil {
		env = &Env{}
	}
	out, err := runLookup(env, name, terms, opts)
	if err != nil {
		var pe *pyError
		if errors.As(err, &pe) {
			return nil, errorf("An unhandled exception occurred while running the lookup plugin '%s'. Error was: %s", name, pe.msg)
		}
		return nil, fmt.Errorf("lookup %s: %w", name, err)
	}
	return out, nil
}

func runLookup(env *Env, name string, terms []any, opts map[string]any) ([]any, error) {
	switch name {
	case "items":
		return flatten(terms, 1, false), nil
	case "env":
		out := []any{}
		def := ""
		if d, ok := opts["default"]; ok {
			def = Str(d)
		}
		for _, t := range terms {
			v, ok := getenv(env, Str(t))
			if !ok {
				v = def
			}
			out = append(out, v)
		}
		return out, nil
	case "file":
		out := []any{}
		for _, t := range terms {
			p, ok := env.find(Str(t))
			if !ok {
				return nil, errorf("could not locate file in lookup: %s", Str(t))
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			s := string(b)
			if v, ok := opts["rstrip"]; !ok || Truthy(v) {
				s = strings.TrimRight(s, " \t\r\n\v\f")
			}
			if Truthy(opts["lstrip"]) {
				s = strings.TrimLeft(s, " \t\r\n\v\f")
			}
			out = append(out, s)
		}
		return out, nil
	case "first_found":
		return firstFound(env, terms, opts)
	case "sequence":
		return sequence(terms, opts)
	case "dict":
		out := []any{}
		for _, t := range terms {
			m, ok := t.(map[string]any)
			if !ok {
				return nil, errorf("with_dict expects a dict")
			}
			for _, k := range sortedKeys(m) {
				out = append(out, map[string]any{"key": k, "value": m[k]})
			}
		}
		return out, nil
	case "fileglob":
		out := []any{}
		for _, t := range terms {
			out = append(out, fileglob(env, Str(t))...)
		}
		return out, nil
	case "lines", "pipe":
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
	case "password":
		out := []any{}
		for _, t := range terms {
			p, err := password(env, Str(t), opts)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	}
	return nil, errorf("lookup plugin (%s) not found", name)
}

// find resolves a file name as Ansible's find_file_in_search_path does for
// the "files" subdirectory.
func (env *Env) find(name string) (string, bool) { return env.findIn("files", name) }

// findIn looks for name in DIR/SUBDIR/NAME, then DIR/NAME, for each search
// path.
func (env *Env) findIn(subdir, name string) (string, bool) {
	if filepath.IsAbs(name) {
		_, err := os.Stat(name)
		return name, err == nil
	}
	for _, dir := range env.searchPaths() {
		for _, p := range []string{filepath.Join(dir, subdir, name), filepath.Join(dir, name)} {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, true
			}
		}
	}
	return "", false
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

func fileglob(env *Env, pattern string) []any {
	var dirs []string
	if filepath.IsAbs(pattern) {
		dirs = []string{""}
	} else {
		for _, d := range env.searchPaths() {
			dirs = append(dirs, filepath.Join(d, "files"), d)
		}
	}
	for _, d := range dirs {
		matches, _ := filepath.Glob(filepath.Join(d, pattern))
		sort.Strings(matches)
		out := []any{}
		for _, m := range matches {
			if st, err := os.Stat(m); err == nil && !st.IsDir() {
				abs, err := filepath.Abs(m)
				if err != nil {
					abs = m
				}
				out = append(out, abs)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

func firstFound(env *Env, terms []any, opts map[string]any) ([]any, error) {
	type spec struct{ files, paths []string }
	split := func(v any) []string {
		var out []string
		items, ok := v.([]any)
		if !ok {
			items = []any{v}
		}
		for _, it := range items {
			for _, s := range strings.FieldsFunc(Str(it), func(r rune) bool { return r == ',' || r == ';' }) {
				out = append(out, s)
			}
		}
		return out
	}
	skip := Truthy(opts["skip"])
	var specs []spec
	for _, t := range flatten(terms, -1, false) {
		if m, ok := t.(map[string]any); ok {
			s := spec{files: split(m["files"])}
			if m["paths"] != nil {
				s.paths = split(m["paths"])
			}
			skip = skip || Truthy(m["skip"])
			specs = append(specs, s)
			continue
		}
		specs = append(specs, spec{files: []string{Str(t)}})
	}
	if f, ok := opts["files"]; ok {
		s := spec{files: split(f)}
		if p, ok := opts["paths"]; ok {
			s.paths = split(p)
		}
		specs = append(specs, s)
	}
	for _, s := range specs {
		for _, f := range s.files {
			cands := []string{f}
			if len(s.paths) > 0 {
				cands = nil
				for _, p := range s.paths {
					cands = append(cands, filepath.Join(p, f))
				}
			}
			for _, c := range cands {
				if p, ok := env.find(c); ok {
					abs, err := filepath.Abs(p)
					if err != nil {
						abs = p
					}
					return []any{abs}, nil
				}
			}
		}
	}
	if skip {
		return []any{}, nil
	}
	return nil, errorf("No file was found when using first_found.")
}

// scopedLookup runs the lookups that read the scope: vars (the value of
// variables named at run time) and template (a template file rendered in
// this scope).
func (ev *evaluator) scopedLookup(name string, terms []any, opts map[string]any) ([]any, error) {
	out := []any{}
	for _, t := range terms {
		term := Str(t)
		if name == "vars" {
			v, ok, err := ev.scope.Lookup(term)
			if err != nil {
				return nil, err
			}
			if !ok {
				if d, has := opts["default"]; has {
					v = d
				} else {
					return nil, &UndefinedError{Name: term, Msg: "No variable found with this name: " + term}
				}
			}
			out = append(out, v)
			continue
		}
		env := envOf(ev.scope)
		p, ok := env.findIn("templates", term)
		if !ok {
			return nil, errorf("the template file %s could not be found for the lookup", term)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		tm, err := ParseFileTemplate(string(b))
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", p, err)
		}
		s, err := tm.Render(ev.scope)
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", p, err)
		}
		out = append(out, s)
	}
	return out, nil
}
