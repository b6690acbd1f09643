package facts

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pydict"
)

// localFacts sets ansible_local from fact_path/*.fact (ScriptFor), as
// Ansible's local collector does: each file, or the output of each
// executable one, read as JSON, else as INI, under the file's name less
// ".fact"; a failure is a message in its place. An INI file whose values
// cannot be interpolated makes Ansible's collector fail, and ansible_local
// is then missing.
func localFacts(r *raw, f map[string]any) {
	local := map[string]any{}
	for _, o := range r.objectsOf("local") {
		name := strings.ReplaceAll(path.Base(o.name), ".fact", "")
		var out string
		if _, ok := o.get("nostat"); ok {
			local[name] = fmt.Sprintf("Could not stat fact (%s): [Errno 2] No such file or directory: '%s'", o.name, o.name)
			continue
		}
		if _, ok := o.get("exec"); ok {
			if n, ok := o.get("toolarge"); ok {
				local[name] = fmt.Sprintf("Could not read fact script output (%s): %s bytes is more than tender reads", o.name, n)
				continue
			}
			rc, stdout, stderr, ok := splitFactRun(strings.Join(o.all("out"), "\n"))
			if !ok {
				local[name] = fmt.Sprintf("Could not execute fact script (%s): its output could not be read", o.name)
				continue
			}
			if rc != 0 {
				local[name] = fmt.Sprintf("Failure executing fact script (%s), rc: %d, err: %s", o.name, rc, stderr)
				continue
			}
			out = stdout
		} else {
			out = strings.TrimSpace(strings.Join(o.all("line"), "\n"))
		}
		v, err := loadFact(out)
		switch {
		case errors.Is(err, errIniInterpolate):
			return
		case err != nil:
			local[name] = "error loading facts as JSON or ini - please check content: " + o.name
		default:
			local[name] = v
		}
	}
	f["local"] = local
}

// splitFactRun reads what the script prints for an executable fact:
// its stderr, a line "rc length", then stdout of that many bytes (or
// characters, where the shell counts those).
func splitFactRun(blob string) (rc int, stdout, stderr string, ok bool) {
	lines := strings.Split(blob, "\n")
	for k := range lines { // the first line that fits: stdout may hold look-alikes
		code, size, found := strings.Cut(lines[k], " ")
		c, err1 := strconv.Atoi(code)
		n, err2 := strconv.Atoi(size)
		if !found || err1 != nil || err2 != nil {
			continue
		}
		rest := strings.Join(lines[k+1:], "\n")
		if len(rest) == n || utf8.RuneCountInString(rest) == n {
			return c, rest, strings.Join(lines[:k], "\n"), true
		}
	}
	return 0, "", "", false
}

// loadFact reads a fact as Python's json.loads would, else as INI.
func loadFact(text string) (any, error) {
	if v, err := decodeJSON(text); err == nil {
		return v, nil
	}
	ini, err := parseINI(text)
	if err != nil {
		return nil, err
	}
	return ini, nil
}

// decodeJSON decodes one JSON document, numbers written without a
// fraction or exponent as integers, as Python's json module does.
func decodeJSON(text string) (any, error) { return pydict.LoadJSON([]byte(text)) }
