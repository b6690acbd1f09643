package control

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
)

// includeVarsModule reads variables from YAML or JSON files on the
// controller, one file or a directory of them, and returns them as facts
// (under name: when given), as Ansible's include_vars does. It never
// touches the host.
type includeVarsModule struct{}

var _ tasks.Module = (*includeVarsModule)(nil)

var includeVarsArgs = &tasks.Spec{
	Module:   "include_vars",
	FreeForm: true,
	Params: []tasks.Param{
		{Name: "file", Kind: tasks.Path},
		{Name: "dir", Kind: tasks.Path},
		{Name: "name"},
		{Name: "depth", Kind: tasks.Int, Default: 0},
		{Name: "files_matching"},
		{Name: "ignore_files", Kind: tasks.List},
		{Name: "extensions", Kind: tasks.List, Default: []any{"yaml", "yml", "json"}},
		{Name: "ignore_unknown_extensions", Kind: tasks.Bool, Default: false},
		{Name: "hash_behaviour", Choices: []string{"replace", "merge"}},
	},
}

var includeVarsDirArgs = []string{"dir", "depth", "files_matching", "ignore_files", "extensions", "ignore_unknown_extensions"}

// includeVarsJob is one include_vars task: its decoded arguments, the
// directory or file to load and the loader that gathers their variables.
type includeVarsJob struct {
	a         tasks.Values
	dir, file string // dir when set, else file ("" for a file not found)
	l         *varsLoader
}

// Run loads the file or directory.
func (includeVarsModule) Run(_ context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, err := decodeIncludeVars(env, args)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(env, j.load(env))
}

// decodeIncludeVars checks include_vars' arguments and makes the job; the
// error is a bad argument.
func decodeIncludeVars(env *tasks.Env, args tasks.Args) (*includeVarsJob, error) {
	dirArgs, fileArgs := 0, 0
	for k := range args {
		switch {
		case slices.Contains(includeVarsDirArgs, k):
			dirArgs++
		case k == "file" || k == "_raw_params":
			fileArgs++
		}
	}
	if dirArgs > 0 && fileArgs > 0 {
		return nil, fmt.Errorf("You are mixing file only and dir only arguments, these are incompatible")
	}
	a, err := includeVarsArgs.Decode(args)
	if err != nil {
		return nil, err
	}
	l := &varsLoader{sandbox: env.Sandbox, decrypt: env.Decrypt, dups: env.DuplicateKeys, warn: env.Warn, exts: a.Strings("extensions"), unknownOK: a.Bool("ignore_unknown_extensions"),
		ignore: a.Strings("ignore_files"), vars: map[string]any{}, files: []any{}}
	if pat := a.Str("files_matching"); pat != "" {
		if l.match, err = pyre.Compile(pat, pyre.Options{}); err != nil {
			return nil, fmt.Errorf("files_matching: %v", err)
		}
	}
	j := &includeVarsJob{a: a, dir: a.Str("dir"), l: l}
	if j.dir == "" {
		j.file = strings.TrimRight(a.Str("file"), "\n")
		if j.file == "" {
			j.file = strings.TrimRight(a.Str("_raw_params"), "\n")
		}
		if j.file == "" && !a.Has("file") && !a.Has("_raw_params") {
			return nil, fmt.Errorf("include_vars needs a file or a dir")
		}
	}
	return j, nil
}

// load reads the directory or the file into the loader and returns the
// message of the failure that stopped it ("" when none did).
func (j *includeVarsJob) load(env *tasks.Env) string {
	switch {
	case j.dir != "":
		return j.l.dir(env, j.dir, j.a.Int("depth"))
	case j.file == "":
		// An empty name (a lookup that found nothing, say) is a file
		// not found, as in Ansible.
		return "Could not find file on the Ansible Controller.\n" + remoteSrcHint
	}
	return j.l.file(env, j.file)
}

// result is include_vars' result: the variables loaded as facts (under
// name when given, merged into the current ones for hash_behaviour
// merge) and the files read, failed with msg when it is set.
func (j *includeVarsJob) result(env *tasks.Env, msg string) (tasks.Result, error) {
	vars := j.l.vars
	name := j.a.Str("name")
	if name != "" {
		vars = map[string]any{name: vars}
	}
	if msg == "" && j.a.Str("hash_behaviour") == "merge" {
		if err := mergeWithCurrent(env, vars, name != ""); err != nil {
			return tasks.Result{}, err
		}
	}
	data := map[string]any{"ansible_facts": vars, "ansible_included_var_files": j.l.files}
	if msg != "" {
		// include_vars reports its failure under "message", not "msg".
		data["message"] = msg
		return tasks.Result{Failed: true, Data: data}, nil
	}
	return tasks.Result{Data: data}, nil
}

// remoteSrcHint ends Ansible's messages for a controller file not found.
const remoteSrcHint = "If you are using a module and expect the file to exist on the remote, see the remote_src option"

// varsLoader gathers the variables of the files include_vars reads.
type varsLoader struct {
	sandbox   *sandbox.Policy
	decrypt   func([]byte) ([]byte, error)
	dups      yaml11.DuplicatePolicy
	warn      func(msg string)
	exts      []string
	unknownOK bool
	ignore    []string
	match     *pyre.Regexp
	vars      map[string]any
	files     []any
}

// file loads one file found the way Ansible looks for vars files.
func (l *varsLoader) file(env *tasks.Env, name string) string {
	path, err := env.FindFile("vars", name)
	if denied := (*sandbox.DeniedError)(nil); errors.As(err, &denied) {
		return err.Error()
	}
	if err != nil {
		return fmt.Sprintf("Could not find or access '%s' on the Ansible Controller.\n%s", name, remoteSrcHint)
	}
	return l.load(path, false)
}

// dir loads the files of a directory tree in sorted order, down to depth
// levels (0: all).
func (l *varsLoader) dir(env *tasks.Env, name string, depth int) string {
	root, err := env.FindFile("vars", name)
	if denied := (*sandbox.DeniedError)(nil); errors.As(err, &denied) {
		return err.Error()
	}
	if err != nil {
		return fmt.Sprintf("%s directory does not exist", name)
	}
	if err := l.sandbox.CheckRead(root); err != nil {
		return err.Error()
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fmt.Sprintf("%s is not a directory", root)
	}
	var dirs []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	slices.Sort(dirs)
	for i, d := range dirs {
		if depth > 0 && i >= depth {
			break
		}
		entries, _ := l.sandbox.ReadDir(d)
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			if l.match != nil {
				m, err := l.match.Search(e.Name())
				if err != nil {
					return err.Error()
				}
				if m == nil {
					continue
				}
			}
			skip, err := l.ignored(e.Name())
			if err != nil {
				return err.Error()
			}
			if skip || (l.unknownOK && !l.validExt(e.Name())) {
				continue
			}
			if msg := l.load(filepath.Join(d, e.Name()), true); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// ignored reports whether name matches one of ignore_files, each a
// Python regular expression followed by "$" (Ansible's
// re.search(r'{0}$'.format(pattern), name)).
func (l *varsLoader) ignored(name string) (bool, error) {
	for _, pat := range l.ignore {
		re, err := pyre.Compile(pat+"$", pyre.Options{})
		if err != nil {
			return false, fmt.Errorf("Invalid regular expression: %s", pat)
		}
		m, err := re.Search(name)
		if m != nil || err != nil {
			return m != nil, err
		}
	}
	return false, nil
}

// validExt reports whether name's extension, as Python's os.path.splitext
// finds it ("" for none; a leading dot starts no extension), is one of
// extensions ("" among them admits files without one).
func (l *varsLoader) validExt(name string) bool {
	return slices.Contains(l.exts, strings.TrimPrefix(pySplitExt(filepath.Base(name)), "."))
}

// pySplitExt is the extension os.path.splitext returns for a base name:
// from its last dot, unless every dot before it leads the name.
func pySplitExt(base string) string {
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || strings.Trim(base[:i], ".") == "" {
		return ""
	}
	return base[i:]
}

// load reads one vars file into l.vars.
func (l *varsLoader) load(path string, checkExt bool) string {
	if checkExt && !l.validExt(path) {
		return fmt.Sprintf("%s does not have a valid extension: %s", path, strings.Join(l.exts, ", "))
	}
	if err := l.sandbox.CheckRead(path); err != nil {
		return err.Error()
	}
	dec := yaml11.NewDecoder()
	dec.Decrypt = l.decrypt
	dec.Duplicates = l.dups
	dec.Warn = l.warn
	data, err := l.sandbox.ReadVaultFile(path)
	if err != nil {
		return fmt.Errorf("vars file: %w", err).Error()
	}
	m, err := dec.Vars(data, path)
	if err != nil {
		if strings.Contains(err.Error(), "must hold a mapping") {
			return fmt.Sprintf("%s must be stored as a dictionary/hash", path)
		}
		return err.Error()
	}
	for k, v := range m {
		l.vars[k] = v
	}
	l.files = append(l.files, path)
	return ""
}

func (includeVarsModule) Spec() *tasks.Spec { return includeVarsArgs }
