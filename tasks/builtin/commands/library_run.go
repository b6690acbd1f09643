package commands

import (
	"encoding/json"
	"fmt"
	"regexp"
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

// moduleScript is the host side of a content module's run: a private
// directory in ~/.ansible/tmp (Ansible's remote_tmp), the module from
// stdin, the arguments from the script's text (never a command line), and
// the module run with the arguments file as its argument, its stdin
// closed. The directory is removed afterwards.
func moduleScript(m *contentModule, base, interp, argText string, utils *moduleUtils) string {
	var s strings.Builder
	s.WriteString(`umask 077
_h=${HOME:-/tmp}
_c="$_h/.ansible/tmp"
mkdir -p "$_c" || exit 1
`)
	if utils != nil {
		fmt.Fprintf(&s, "_z=\"$_c\"/%s\n", shared.Q(utils.name))
		fmt.Fprintf(&s, "[ -f \"$_z\" ] || { printf '%%s%%s\\n' %s \"$_h\"; exit %d; }\n", shared.Q(needUtilsMark), needUtilsCode)
	}
	fmt.Fprintf(&s, `_d=$(mktemp -d "$_c/tender-module.XXXXXXXX") || exit 1
trap 'rm -rf "$_d"' EXIT
cat > "$_d"/%[1]s || exit 1
chmod 700 "$_d"/%[1]s
printf '%%s' %[2]s > "$_d"/args || exit 1
`, shared.Q(base), shared.Q(argText))
	run := `"$_d"/` + shared.Q(base)
	switch {
	case interp != "":
		// ansible_<name>_interpreter, or the shebang: words, as Ansible
		// writes them in place of the shebang.
		run = interp + " " + run
	case m.interp == "python" && m.kind != kindBinary:
		s.WriteString(`_py=
for _p in python3 /usr/bin/python3 /usr/libexec/platform-python python /usr/bin/python; do
	if command -v "$_p" >/dev/null 2>&1; then _py=$_p; break; fi
done
[ -n "$_py" ] || { echo "/usr/bin/python: not found" >&2; exit 127; }
`)
		run = `"$_py" ` + run
	}
	if utils != nil {
		run = `PYTHONPATH="$_z${PYTHONPATH:+:$PYTHONPATH}" ` + run
	}
	fmt.Fprintf(&s, "%s \"$_d\"/args </dev/null\n", run)
	return s.String()
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
	return resultFromData(data)
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

// resultFromData turns a module's JSON result into a Result: changed,
// failed, skipped, msg, rc, stdout and stderr read from it, the whole of
// it kept as what register stores.
func resultFromData(data map[string]any) tasks.Result {
	r := tasks.Result{Data: data}
	r.Changed = shared.Truthy(data["changed"])
	r.Failed = shared.Truthy(data["failed"])
	if _, said := data["failed"]; !said {
		// As Ansible: a result without failed fails on a non-zero rc.
		rc, has := data["rc"]
		r.Failed = has && rc != 0 && rc != "0"
	}
	r.Skipped = shared.Truthy(data["skipped"])
	if msg, ok := data["msg"].(string); ok {
		r.Msg = msg
	}
	if rc, ok := data["rc"].(int); ok {
		r.RC = rc
	}
	if s, ok := data["stdout"].(string); ok {
		r.Stdout = s
	}
	if s, ok := data["stderr"].(string); ok {
		r.Stderr = s
	}
	if w, ok := data["warnings"].([]any); ok {
		for _, x := range w {
			r.Warnings = append(r.Warnings, fmt.Sprint(x))
		}
	}
	return r
}
