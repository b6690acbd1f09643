package expr

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Sandbox bounds what expressions may do on the controller (an embedding
// program's policy: tender's sandbox.Policy implements it). Each method
// returns an error to refuse; the evaluation then fails with that error,
// whatever a lookup's errors= says. Methods must be safe for concurrent
// use.
//
// CheckLookup is asked before a lookup plugin runs (lookup, query and
// with_<name> loops). CheckRead is asked before a controller path is
// read, listed or tested: the files lookups search and read (file,
// fileglob, first_found, ini, csvfile, template, password), the
// templates {% include %} and {% import %} search, the controller file
// tests (file, directory, exists, link, link_exists, mount, same_file)
// and the fileglob and realpath filters. CheckWrite is asked before the
// password lookup creates or updates its file. Open opens a controller
// file a lookup or a template include reads, in place of os.Open, once
// CheckRead allowed it: it must refuse what CheckRead refuses, and make
// sure the file it opens is still one it allows (a symlink swapped in
// since the check). CheckEnv is asked before
// the controller's environment variable name is read (the env lookup,
// the expandvars filter, HOME for expanduser): a variable it refuses
// looks unset, as a variable the controller does not have, and
// expanduser under a sandbox never reads the user database.
type Sandbox interface {
	CheckLookup(name string) error
	CheckRead(path string) error
	CheckWrite(path string) error
	CheckEnv(name string) error
	Open(path string) (*os.File, error)
}

// deniedError is a Sandbox's refusal: fatal to a lookup whatever its
// errors= says, and shown as the sandbox worded it.
type deniedError struct{ err error }

func (e *deniedError) Error() string { return e.err.Error() }
func (e *deniedError) Unwrap() error { return e.err }

func (env *Env) checkLookup(name string) error {
	if env == nil || env.Sandbox == nil {
		return nil
	}
	return denied(env.Sandbox.CheckLookup(name))
}

func (env *Env) checkRead(path string) error {
	if env == nil || env.Sandbox == nil {
		return nil
	}
	return denied(env.Sandbox.CheckRead(path))
}

func (env *Env) checkWrite(path string) error {
	if env == nil || env.Sandbox == nil {
		return nil
	}
	return denied(env.Sandbox.CheckWrite(path))
}

func (env *Env) checkEnv(name string) error {
	if env == nil || env.Sandbox == nil {
		return nil
	}
	return denied(env.Sandbox.CheckEnv(name))
}

// open opens a controller file to read, through the sandbox when there
// is one; a refusal is a denial.
func (env *Env) open(path string) (*os.File, error) {
	if env == nil || env.Sandbox == nil {
		return os.Open(path)
	}
	f, err := env.Sandbox.Open(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if cerr := env.Sandbox.CheckRead(path); cerr != nil {
			return nil, denied(err)
		}
	}
	return f, err
}

func denied(err error) error {
	if err == nil {
		return nil
	}
	return &deniedError{err}
}

// globRoot is the directory a glob pattern lists first: its longest
// leading part without wildcards (the pattern itself when it has none).
func globRoot(pattern string) string {
	parts := strings.Split(pattern, "/")
	for i, p := range parts {
		if strings.ContainsAny(p, "*?[") {
			root := strings.Join(parts[:i], "/")
			if root == "" && strings.HasPrefix(pattern, "/") {
				return "/"
			}
			if root == "" {
				return "."
			}
			return root
		}
	}
	return filepath.Clean(pattern)
}

// controllerFileTests are the tests that look at the controller's files.
var controllerFileTests = map[string]bool{"file": true, "directory": true, "exists": true,
	"link": true, "link_exists": true, "mount": true, "same_file": true,
	"is_file": true, "is_dir": true, "is_link": true, "is_mount": true, "is_same_file": true}

// checkTest asks the sandbox before a controller file test: the path
// tested (and same_file's other path) must be readable.
func (env *Env) checkTest(name string, x any, args []any) error {
	if env == nil || env.Sandbox == nil || !controllerFileTests[name] {
		return nil
	}
	paths := []any{x}
	if (name == "same_file" || name == "is_same_file") && len(args) > 0 {
		paths = append(paths, args[0])
	}
	for _, p := range paths {
		if s, ok := text(p); ok && s != "" {
			if err := env.checkRead(s); err != nil {
				return err
			}
		}
	}
	return nil
}
