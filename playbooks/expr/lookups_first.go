package expr

import (
	"path/filepath"
	"strings"
)

// firstFoundLookup is ansible-core's first_found: the absolute path of the
// first file found (in DIR/files/NAME, then DIR/NAME of each search path,
// or at NAME when absolute), or an error, or [] with skip.
//
// Each term is a file name (the lookup's own files=, paths= and skip=
// apply to it), a dict with files, paths and skip, or a list of such terms.
// files are split on "," and ";", paths on ",", ":" and ";". With paths,
// every path is tried with every file (path by path); files without paths
// replace the names gathered so far; a term that gives neither is a name
// itself. The skip of the last term processed decides.
func firstFoundLookup(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
	names, skip, err := firstFoundTerms(terms, opts)
	if err != nil {
		return nil, err
	}
	env := envOf(ev.scope)
	subdir := ev.subdir
	if subdir == "" {
		subdir = "files"
	}
	for _, n := range names {
		p, ok, err := env.findIn(subdir, n)
		if err != nil {
			return nil, err
		}
		if ok {
			abs, err := filepath.Abs(p)
			if err != nil {
				abs = p
			}
			return []any{abs}, nil
		}
	}
	if skip {
		return []any{}, nil
	}
	return nil, errorf("No file was found when using first_found.")
}

func firstFoundTerms(terms []any, kwargs map[string]any) ([]string, bool, error) {
	var search []string
	skip := false
	for _, term := range terms {
		var opts map[string]any
		switch t := term.(type) {
		case map[string]any:
			opts = t
		case []any:
			partial, s, err := firstFoundTerms(t, kwargs)
			if err != nil {
				return nil, false, err
			}
			search = append(search, partial...)
			skip = s
			continue
		default:
			if _, ok := text(term); !ok {
				return nil, false, errorf("Invalid term supplied, can handle string, mapping or list of strings but got: <class '%s'> for %s", typeName(term), Str(term))
			}
			opts = kwargs
		}
		files, err := listOption("files", opts["files"])
		if err != nil {
			return nil, false, err
		}
		paths, err := listOption("paths", opts["paths"])
		if err != nil {
			return nil, false, err
		}
		skip = ansibleBool(opts["skip"])
		files = splitOn(files, ",;")
		paths = splitOn(paths, ",:;")
		switch {
		case len(paths) > 0:
			for _, p := range paths {
				for _, f := range files {
					search = append(search, filepath.Join(p, f))
				}
			}
		case len(files) > 0:
			search = files
		default:
			name, ok := text(term)
			if !ok {
				return nil, false, errorf("first_found: a dict term needs 'files', got %s", Str(term))
			}
			search = append(search, name)
		}
	}
	return search, skip, nil
}

// listOption is a plugin option of type list: a list of strings, or a
// string of comma-separated items; None is the empty list.
func listOption(name string, v any) ([]string, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			s, ok := text(x)
			if !ok {
				return nil, errorf("first_found: %s must be strings, got %s", name, typeName(x))
			}
			out = append(out, s)
		}
		return out, nil
	}
	s, ok := text(v)
	if !ok {
		return nil, fatalf("Invalid type for configuration option %s: a list is required, got %s", name, typeName(v))
	}
	var out []string
	for _, part := range strings.Split(s, ",") {
		out = append(out, unquote(strings.TrimSpace(part)))
	}
	return out, nil
}

// splitOn splits each item at any of seps, keeping empty parts as Ansible
// does.
func splitOn(items []string, seps string) []string {
	var out []string
	for _, it := range items {
		start := 0
		for i, r := range it {
			if strings.ContainsRune(seps, r) {
				out = append(out, it[start:i])
				start = i + len(string(r))
			}
		}
		out = append(out, it[start:])
	}
	return out
}
