package expr

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tender-sh/tender/internal/boolean"
)

// moreTests are Ansible's tests on lists, truthiness, numbers, URIs and
// the controller's files.
var moreTests = map[string]testFunc{
	"any": func(x any, _ []any, _ map[string]any) (bool, error) {
		items, err := iterate(x)
		if err != nil {
			return false, err
		}
		for _, it := range items {
			if Truthy(it) {
				return true, nil
			}
		}
		return false, nil
	},
	"all": func(x any, _ []any, _ map[string]any) (bool, error) {
		items, err := iterate(x)
		if err != nil {
			return false, err
		}
		for _, it := range items {
			if !Truthy(it) {
				return false, nil
			}
		}
		return true, nil
	},
	"truthy": func(x any, args []any, kw map[string]any) (bool, error) { return truthy(x, args, kw), nil },
	"falsy":  func(x any, args []any, kw map[string]any) (bool, error) { return !truthy(x, args, kw), nil },
	// tender decrypts !vault values when it loads them and has no vault
	// objects (vault(wrap_object=True) is refused), so no value is one
	"vault_encrypted": func(any, []any, map[string]any) (bool, error) { return false, nil },
	"nan": func(x any, _ []any, _ map[string]any) (bool, error) {
		f, ok := x.(float64)
		return ok && math.IsNaN(f), nil
	},
	"uri": func(x any, args []any, kw map[string]any) (bool, error) {
		return isURI(x, argOr(args, kw, 0, "schemes", nil)), nil
	},
	"url": func(x any, args []any, kw map[string]any) (bool, error) {
		if !isURI(x, argOr(args, kw, 0, "schemes", nil)) {
			return false, nil
		}
		u, _ := urlSplit(Str(x))
		return u["netloc"] != "" || u["scheme"] == "file", nil
	},
	"urn": func(x any, _ []any, _ map[string]any) (bool, error) { return isURI(x, []any{"urn"}), nil },
	"directory": fileTest(func(p string) (bool, error) {
		st, err := os.Stat(p)
		return err == nil && st.IsDir(), nil
	}),
	"file": fileTest(func(p string) (bool, error) {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular(), nil
	}),
	"link": fileTest(func(p string) (bool, error) {
		st, err := os.Lstat(p)
		return err == nil && st.Mode()&os.ModeSymlink != 0, nil
	}),
	"exists": fileTest(func(p string) (bool, error) {
		_, err := os.Stat(p)
		return err == nil, nil
	}),
	"link_exists": fileTest(func(p string) (bool, error) {
		_, err := os.Lstat(p)
		return err == nil, nil
	}),
	"abs": func(x any, _ []any, _ map[string]any) (bool, error) {
		s, ok := text(x)
		if !ok {
			return false, errorf("expected str, bytes or os.PathLike object, not %s", typeName(x))
		}
		return strings.HasPrefix(s, "/"), nil
	},
	"mount": fileTest(isMount),
}

// truthy is Ansible's truthy(value, convert_bool=False): Python's truth,
// after reading a boolean-like string ("yes", "off", …) as a boolean when
// convert_bool is set.
func truthy(x any, args []any, kw map[string]any) bool {
	if Truthy(argOr(args, kw, 0, "convert_bool", false)) {
		if s, ok := text(x); ok {
			if b, ok := boolean.Word(s); ok {
				return b
			}
		}
	}
	return Truthy(x)
}

// isURI is Ansible's uri test: any string parses as a URI; with schemes,
// its scheme must be one of them.
func isURI(x any, schemes any) bool {
	s, ok := text(x)
	if !ok {
		return false
	}
	u, err := urlSplit(s)
	if err != nil {
		return false
	}
	if !Truthy(schemes) {
		return true
	}
	in, err := contain(schemes, u["scheme"])
	return err == nil && in
}

// fileTest makes a test on a path on the controller; a relative path is
// taken from the working directory, as in Ansible.
func fileTest(f func(p string) (bool, error)) testFunc {
	return func(x any, _ []any, _ map[string]any) (bool, error) {
		s, ok := text(x)
		if !ok {
			return false, errorf("stat: path should be string, bytes or os.PathLike, not %s", typeName(x))
		}
		if s == "" {
			return false, nil
		}
		return f(s)
	}
}

// isMount is Python's os.path.ismount: a symlink is not a mount point; a
// directory is one when its parent is on another device or is itself.
func isMount(p string) (bool, error) {
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&os.ModeSymlink != 0 || !st.IsDir() {
		return false, nil
	}
	parent, err := os.Lstat(filepath.Join(p, ".."))
	if err != nil {
		return false, nil
	}
	a, ok1 := st.Sys().(*syscall.Stat_t)
	b, ok2 := parent.Sys().(*syscall.Stat_t)
	if !ok1 || !ok2 {
		return false, nil
	}
	return a.Dev != b.Dev || a.Ino == b.Ino, nil
}

// sameFile is the same_file test: both paths must exist.
func sameFile(x any, args []any, kw map[string]any) (bool, error) {
	if err := needArgs("same_file", args, 1); err != nil {
		return false, err
	}
	a, ok1 := text(x)
	b, ok2 := text(args[0])
	if !ok1 || !ok2 {
		return false, errorf("stat: path should be string, bytes or os.PathLike")
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false, errorf("[Errno 2] No such file or directory: %s", Repr(a))
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, errorf("[Errno 2] No such file or directory: %s", Repr(b))
	}
	return os.SameFile(sa, sb), nil
}
