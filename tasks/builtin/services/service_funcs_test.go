package services

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// The status line's lowercasing and the removal of the service's name
// are done without a process, and give what tr 'A-Z' 'a-z' and sed's
// s/NAME//g give: overlapping and repeated names, regular expression
// characters in the name, several lines, non-ASCII bytes.
func TestServiceStatusLineBuiltins(t *testing.T) {
	funcs := modtest.ShFunc(t, serviceScript, "_t_lower") + modtest.ShFunc(t, serviceScript, "_t_strip")
	cases := [][2]string{
		{"SSH is Running.", "ssh"},
		{"aabb", "ab"},
		{"ababab", "ab"},
		{"x.y [X.Y] is stopped", "x.y"},
		{"Status of nginx: NOT running\n", "NGINX"},
		{"two\nLines", "lines"},
		{"Ünïcode RUNNING", "ünïcode"},
		{"name*?[a] runs", "name*?[a]"},
		{"", "x"},
	}
	for _, c := range cases {
		script := "export LC_ALL=C\n" + funcs + `_t_lower "$1"; _lo=$_lc; _t_lower "$2"; _t_strip "$_lo" "$_lc"; printf '%s|' "$_st"` + "\n" +
			`printf %s "$1" | tr 'A-Z' 'a-z' | sed "s/$(printf %s "$2" | tr 'A-Z' 'a-z' | sed 's/[]\/$*.^[]/\\&/g')//g"` + "\n"
		out, err := exec.Command("/bin/sh", "-c", script, "sh", c[0], c[1]).Output()
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		got, want, _ := strings.Cut(string(out), "|")
		// sed ends its last line with a newline; the script's caller
		// drops trailing newlines either way.
		if strings.TrimRight(got, "\n") != strings.TrimRight(want, "\n") {
			t.Errorf("%q: builtins %q, tr and sed %q", c, got, want)
		}
	}
}
