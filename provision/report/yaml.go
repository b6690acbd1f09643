package report

import (
	"strings"

	"github.com/tender-sh/tender/internal/pyyaml"
)

// yamlResult is a result (its shown keys) as the yaml callback's
// _dump_results writes it: the module's invocation and diff left out
// below -vvv, its exception always; changed (and skipped) as
// "changed=true " first; stdout_lines and stderr_lines "<omitted>" beside
// stdout and stderr; the rest as YAML, sorted, every line after the
// first indented by two spaces.
func yamlResult(m map[string]any, verbosity int) string {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if strings.HasPrefix(k, "_ansible_") {
			continue
		}
		out[k] = v
	}
	if verbosity < 3 {
		delete(out, "invocation")
		delete(out, "diff")
	}
	delete(out, "exception")
	var b strings.Builder
	for _, k := range []string{"changed", "skipped"} {
		if v, ok := out[k]; ok {
			b.WriteString(k + "=" + strings.ToLower(pyStr(v)) + " ")
			delete(out, k)
		}
	}
	for _, k := range []string{"stdout", "stderr"} {
		if _, ok := out[k]; ok {
			if _, ok := out[k+"_lines"]; ok {
				out[k+"_lines"] = "<omitted>"
			}
		}
	}
	if len(out) > 0 {
		b.WriteString("\n")
		b.WriteString(pyyaml.Dump(out, pyyaml.Options{Indent: 2, BlockText: true}))
	}
	return strings.TrimRight(strings.ReplaceAll(b.String(), "\n", "\n  "), " \t\n\r\v\f")
}

// pyStr is Python's str() of a flag: True, False, or the value's text.
func pyStr(v any) string {
	switch t := v.(type) {
	case bool:
		if t {
			return "True"
		}
		return "False"
	case string:
		return t
	}
	data, err := marshal(v, "")
	if err != nil {
		return ""
	}
	return string(data)
}
