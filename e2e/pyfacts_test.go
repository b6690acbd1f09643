//go:build e2e

package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision/facts"
)

// TestPythonFactsFromFilesOnTheFleet checks, on real hosts of the fleet,
// that the Python facts the fact script tells from the interpreter's
// files and `python -V` (python.sh's pyfast) are what the interpreter
// says of itself, that the files are enough on each image's own Python,
// and that where they are not (a copy outside its prefix, a virtual
// environment, a link from another bin directory, a host whose
// libselinux is gone) the script asks the interpreter.
func TestPythonFactsFromFilesOnTheFleet(t *testing.T) {
	discovery := "for p in /usr/bin/python3 /usr/libexec/platform-python /usr/bin/python /usr/local/bin/python3 python3 python; do"
	ahead := `pyfast "$p" && break`
	if !strings.Contains(facts.Script, discovery) || !strings.Contains(facts.Script, ahead) {
		t.Fatal("python.sh's interpreter discovery is not where this test looks for it")
	}
	base := strings.Replace(facts.Script, discovery, `for p in "$PY"; do`, 1)
	fast := strings.Replace(base, ahead, `pyfast "$p" && { echo FAST; break; }`, 1)
	asked := strings.Replace(base, ahead, ":", 1)
	// pyLines runs a variant of the script with PY=python on a container
	// and returns its Python lines (then FAST when pyfast told them).
	pyLines := func(h host, script, python string) string {
		c := exec.Command("docker", "exec", "-i", "-e", "PY="+python, h.container, "sh", "-s")
		c.Stdin = strings.NewReader(script)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%s: the fact script: %v\n%s", h.name, err, out)
		}
		var keep []string
		for _, l := range strings.Split(string(out), "\n") {
			if l == "FAST" || strings.HasPrefix(l, "v|python_") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	check := func(h host, python string, wantFast bool) {
		t.Helper()
		got, want := pyLines(h, fast, python), pyLines(h, asked, python)
		told := strings.HasSuffix(got, "\nFAST")
		if told != wantFast {
			t.Errorf("%s, %s: told from files %v, want %v", h.name, python, told, wantFast)
		}
		if got = strings.TrimSuffix(got, "\nFAST"); got != want {
			t.Errorf("%s, %s: told\n%s\nthe interpreter says\n%s", h.name, python, got, want)
		}
		if !strings.Contains(want, "v|python_executable|") {
			t.Errorf("%s, %s: no Python facts at all:\n%s", h.name, python, want)
		}
	}
	run := func(h host, script string) {
		if out, err := exec.Command("docker", "exec", h.container, "sh", "-c", script).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", h.name, err, out)
		}
	}
	hosts := map[string]host{}
	for _, kind := range []string{"py", "sys", "rh", "openrc", "nopy"} {
		hosts[kind] = fl.start(t, kind, "", kind)
	}
	for _, kind := range []string{"py", "sys", "rh", "openrc"} {
		check(hosts[kind], "/usr/bin/python3", true)
	}
	if got := pyLines(hosts["nopy"], fast, "/usr/bin/python3"); got != "" {
		t.Errorf("a host without Python: %q", got)
	}
	py := hosts["py"]
	check(py, "python3", true) // found on $PATH
	run(py, `mkdir -p /opt/c/bin /opt/v/bin && cp /usr/bin/python3.11 /opt/c/bin/python3 &&
		ln -s /usr/bin/python3.11 /opt/v/bin/python3 && echo 'home = /usr/bin' >/opt/v/pyvenv.cfg &&
		ln -s /usr/bin/python3.11 /usr/local/bin/python3`)
	for _, p := range []string{"/opt/c/bin/python3", "/opt/v/bin/python3", "/usr/local/bin/python3"} {
		check(py, p, false)
	}
	// Without libselinux (moved by a program that has loaded it already)
	// only the interpreter can say it cannot load it.
	run(py, `set -- /usr/lib/*/libselinux.so.1 && mv "$1" /root/`)
	check(py, "/usr/bin/python3", false)
	if got := pyLines(py, fast, "/usr/bin/python3"); !strings.Contains(got, "v|python_selinux|False") {
		t.Errorf("without libselinux: %s", got)
	}
}
