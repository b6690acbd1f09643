package commands

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// needUtilsCode and needUtilsMark are how the module script says the
// host lacks the module_utils zip (followed by the user's home): the
// runner sends it and runs the script again.
const (
	needUtilsCode = 97
	needUtilsMark = "tender-need-module-utils "
)

// moduleScriptText is the host side of a content module's run (see
// moduleScript).
//
//go:embed library_run.sh
var moduleScriptText string

// moduleScript is the script that runs module m on the host: its file
// name base, the interpreter's words interp ("" for the file itself, or,
// for a Python module, the host's first Python), its arguments argText,
// the zips Python imports from (names in ~/.ansible/tmp), and, for a
// collection's module, its dotted name (run with python -m).
func moduleScript(m *contentModule, base, interp, argText string, zips []string, modname string) string {
	vars := [][2]string{{"base", base}, {"args", argText}, {"interp", interp},
		{"findpy", shared.BoolFlag(m.interp == "python" && m.kind != kindBinary)},
		{"utils", strings.Join(zips, " ")}, {"modname", modname}, {"mark", needUtilsMark}, {"code", strconv.Itoa(needUtilsCode)}}
	return shared.ShAssign(vars) + moduleScriptText
}

// moduleResult reads a module's output as Ansible does: the JSON object
// in stdout (lines before it and after it dropped, junk after it a
// warning), or, when there is none, a failure holding what the module
// printed.
func moduleResult(stdout, stderr string, rc int, interp string) tasks.Result {
	text, warnings, err := jsonInOutput(stdout)
	var data map[string]any
	if err == nil {
		d := json.NewDecoder(strings.NewReader(text))
		d.UseNumber()
		var v any
		if v, err = pydict.DecodeJSON(d); err == nil {
			if v, err = expr.FromJSON(v); err == nil {
				var ok bool
				if data, ok = v.(map[string]any); !ok {
					err = fmt.Errorf("not an object")
				}
			}
		}
	}
	if err != nil {
		data = map[string]any{"failed": true, "module_stdout": stdout, "module_stderr": stderr, "rc": rc}
		if strings.HasPrefix(stderr, "Traceback") {
			data["exception"] = stderr
		} else if strings.HasPrefix(stdout, "Traceback") {
			data["exception"] = stdout
		}
		msg := "MODULE FAILURE"
		used := interp
		if used == "" {
			used = "/usr/bin/python"
		}
		re := regexp.MustCompile(regexp.QuoteMeta(strings.Fields(used + " x")[0]) + `: (?:No such file or directory|not found)`)
		if re.MatchString(stderr) || re.MatchString(stdout) {
			msg = "The module failed to execute correctly, you probably need to set the interpreter."
		}
		data["msg"] = msg + "\nSee stdout/stderr for the exact error"
	}
	if len(warnings) > 0 {
		w, _ := data["warnings"].([]any)
		for _, x := range warnings {
			w = append(w, x)
		}
		data["warnings"] = w
	}
	return tasks.ResultOf(data, true)
}

// jsonInOutput finds the JSON object a module printed: from the first
// line that starts with "{" to the last that ends with "}". Lines after it
// that are not blank are junk, reported as a warning.
func jsonInOutput(out string) (string, []string, error) {
	lines := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "{") {
			start = i
			break
		}
	}
	if start < 0 {
		return "", nil, fmt.Errorf("no start of json char found")
	}
	lines = lines[start:]
	end := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasSuffix(strings.TrimSpace(lines[i]), "}") {
			end = i
			break
		}
	}
	if end < 0 {
		return "", nil, fmt.Errorf("no end of json char found")
	}
	var warnings []string
	if trailing := lines[end+1:]; strings.TrimSpace(strings.Join(trailing, "")) != "" {
		// Ansible splits the output with splitlines, which has no empty
		// last line after a final newline.
		if n := len(trailing); n > 0 && trailing[n-1] == "" {
			trailing = trailing[:n-1]
		}
		warnings = append(warnings, "Module invocation had junk after the JSON data: "+strings.Join(trailing, "\n"))
	}
	return strings.Join(lines[:end+1], "\n"), warnings, nil
}
