package expr

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/internal/osproc"
)

// pathTests are Ansible's tests on paths (same_file is added beside
// them): abs reads the text only; the others look at the controller's
// files, as Ansible's do, after the sandbox's read check
// (controllerFileTests).
var pathTests = map[string]testFunc{
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
	devA, inoA, ok1 := osproc.Identity(st)
	devB, inoB, ok2 := osproc.Identity(parent)
	if !ok1 || !ok2 {
		return false, nil
	}
	return devA != devB || inoA == inoB, nil
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
