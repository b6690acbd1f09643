package facts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pyfastFunc is python.sh's pyfast function, cut out to be run alone.
func pyfastFunc(t *testing.T) string {
	t.Helper()
	start := strings.Index(Script, "\npyfast() {\n")
	if start < 0 {
		t.Fatal("python.sh has no pyfast function")
	}
	end := strings.Index(Script[start:], "\n}\n")
	if end < 0 {
		t.Fatal("python.sh's pyfast function has no end")
	}
	return Script[start : start+end+3]
}

// pyInstall lays out a fake CPython installation under a temp prefix:
// bin/python3 a link to bin/pythonX.Y, a script answering -V with
// version; the standard library's landmark, ctypes, and _ssl and _ctypes
// as extension modules of platform trip in lib-dynload. change edits the
// tree before it is used; it returns bin/python3.
func pyInstall(t *testing.T, libdir, version, trip string, change func(prefix string)) string {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "py")
	mm := "3.12"
	lib := filepath.Join(prefix, libdir, "python"+mm)
	for _, d := range []string{filepath.Join(prefix, "bin"), filepath.Join(lib, "lib-dynload"), filepath.Join(lib, "ctypes")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(lib, "os.py"):                                          "",
		filepath.Join(lib, "ctypes", "__init__.py"):                          "",
		filepath.Join(lib, "lib-dynload", "_ssl.cpython-312-"+trip+".so"):    "",
		filepath.Join(lib, "lib-dynload", "_ctypes.cpython-312-"+trip+".so"): "",
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(prefix, "bin", "python"+mm)
	script := "#!/bin/sh\n[ \"$1\" = -V ] || exit 9\nprintf '%s\\n' '" + version + "'\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("python"+mm, filepath.Join(prefix, "bin", "python3")); err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(prefix)
	}
	return filepath.Join(prefix, "bin", "python3")
}

// hostTrip is a platform whose libselinux.so.1 this machine has where
// pyfast looks, or "" (then the cases that need one are skipped).
func hostTrip() string {
	for _, d := range []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"} {
		if _, err := os.Stat(filepath.Join(d, "libselinux.so.1")); err == nil {
			return "x86_64-linux-gnu"
		}
	}
	return ""
}

// runPyfast runs pyfast on python under sh; it returns its output and
// whether it succeeded.
func runPyfast(t *testing.T, python string) (string, bool) {
	t.Helper()
	cmd := exec.Command("sh", "-c", pyfastFunc(t)+`pyfast "$1"`, "sh", python)
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return string(out), err == nil
}

// TestPyfastTellsACPythonRelease checks the facts pyfast prints for an
// installation whose files tell everything, in lib and in lib64.
func TestPyfastTellsACPythonRelease(t *testing.T) {
	trip := hostTrip()
	if trip == "" {
		t.Skip("no libselinux.so.1 in /lib/x86_64-linux-gnu here")
	}
	for _, libdir := range []string{"lib", "lib64"} {
		python := pyInstall(t, libdir, "Python 3.12.10", trip, nil)
		out, ok := runPyfast(t, python)
		want := "v|python_executable|" + python + "\nv|python_version_info|3 12 10 final 0\nv|python_type|cpython\n" +
			"v|python_sslcontext|True\nv|python_selinux|True\n"
		if !ok || out != want {
			t.Errorf("%s: ok %v, output\n%s\nwant\n%s", libdir, ok, out, want)
		}
	}
}

// TestPyfastLeavesTheRestToTheInterpreter checks that pyfast prints
// nothing and fails wherever only the interpreter can tell its facts.
func TestPyfastLeavesTheRestToTheInterpreter(t *testing.T) {
	trip := hostTrip()
	if trip == "" {
		trip = "x86_64-linux-gnu"
	}
	write := func(p string) {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(rel string) func(string) {
		return func(prefix string) {
			if err := os.Remove(filepath.Join(prefix, rel)); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name, version, trip string
		change              func(prefix string)
	}{
		{name: "a release candidate", version: "Python 3.13.0rc1"},
		{name: "an alpha", version: "Python 3.13.0a4"},
		{name: "a development build", version: "Python 3.12.1+"},
		{name: "PyPy", version: "Python 3.9.16 (feeb267ead3e, Feb 08 2023)\n[PyPy 7.3.11 with GCC 10.2.1]"},
		{name: "GraalPy", version: "GraalPy 3.10.8"},
		{name: "Python 2", version: "Python 2.7.18"},
		{name: "a version without micro", version: "Python 3.12"},
		{name: "a four-part version", version: "Python 3.12.1.1"},
		{name: "a virtual environment", change: func(p string) { write(filepath.Join(p, "pyvenv.cfg")) }},
		{name: "pyvenv.cfg beside the program", change: func(p string) { write(filepath.Join(p, "bin", "pyvenv.cfg")) }},
		{name: "a ._pth file", change: func(p string) { write(filepath.Join(p, "bin", "python3._pth")) }},
		{name: "a build directory", change: func(p string) { write(filepath.Join(p, "bin", "pybuilddir.txt")) }},
		{name: "a lib beside the program", change: func(p string) { os.Mkdir(filepath.Join(p, "bin", "lib"), 0o755) }},
		{name: "no standard library", change: remove("lib/python3.12/os.py")},
		{name: "_ssl built in", change: remove("lib/python3.12/lib-dynload/_ssl.cpython-312-" + trip + ".so")},
		{name: "no _ctypes", change: remove("lib/python3.12/lib-dynload/_ctypes.cpython-312-" + trip + ".so")},
		{name: "no ctypes package", change: remove("lib/python3.12/ctypes/__init__.py")},
		{name: "no libselinux for the platform", trip: "nosuch-linux-gnu"},
		{name: "a standard library in lib and lib64", change: func(p string) {
			os.MkdirAll(filepath.Join(p, "lib64", "python3.12"), 0o755)
			write(filepath.Join(p, "lib64", "python3.12", "os.py"))
		}},
		{name: "pythonX.Y a link elsewhere", change: func(p string) {
			bin := filepath.Join(p, "bin")
			os.Rename(filepath.Join(bin, "python3.12"), filepath.Join(p, "real"))
			os.Symlink(filepath.Join(p, "real"), filepath.Join(bin, "python3.12"))
		}},
		{name: "a program that is not pythonX.Y", change: func(p string) {
			bin := filepath.Join(p, "bin")
			os.Remove(filepath.Join(bin, "python3"))
			data, _ := os.ReadFile(filepath.Join(bin, "python3.12"))
			os.WriteFile(filepath.Join(bin, "python3"), data, 0o755)
		}},
		{name: "-V fails", change: func(p string) {
			os.WriteFile(filepath.Join(p, "bin", "python3.12"), []byte("#!/bin/sh\necho 'Python 3.12.1'\nexit 1\n"), 0o755)
		}},
	}
	for _, c := range cases {
		version, tr := c.version, c.trip
		if version == "" {
			version = "Python 3.12.1"
		}
		if tr == "" {
			tr = trip
		}
		python := pyInstall(t, "lib", version, tr, c.change)
		if out, ok := runPyfast(t, python); ok || out != "" {
			t.Errorf("%s: pyfast succeeded (%v) or printed %q", c.name, ok, out)
		}
	}
	for _, p := range []string{"/usr//bin/python3", "/usr/bin/../bin/python3", "/usr/lib/python3", "relative/bin/python3"} {
		if out, ok := runPyfast(t, p); ok || out != "" {
			t.Errorf("%s: pyfast succeeded (%v) or printed %q", p, ok, out)
		}
	}
}
