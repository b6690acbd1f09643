package provision_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision"
)

// A template past Runner.TemplateLimits fails its task on each host, with
// a message naming the limit; the zero value applies expr's defaults,
// under which the same templates pass.
func TestTemplateLimits(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - name: build a lot
      debug:
        msg: "{% for i in range(30) %}{{ ('a' * 100000) | length }}{% endfor %}"
    - name: loop a lot
      debug:
        msg: "{% for i in range(100) %}{{ i }}{% endfor %}"
      when: step2 | default(false)
`
	for _, c := range []struct {
		limits   expr.Limits
		task     string
		limit    string
		vars     map[string]any
		failures int
	}{
		{expr.Limits{MaxBytes: 1 << 20}, "build a lot", "it built more than 1 MiB", nil, 2},
		{expr.Limits{MaxTime: time.Nanosecond}, "build a lot", "it ran for more than 1ns", nil, 2},
		{expr.Limits{}, "", "", map[string]any{"step2": true}, 0},
	} {
		out, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\n", pb, func(r *provision.Runner) {
			r.TemplateLimits = c.limits
			r.ExtraVars = c.vars
		})
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for _, h := range []string{"a", "b"} {
			failed += recap.Stats[h].Failed
		}
		if failed != c.failures {
			t.Errorf("%+v: %d failures, want %d:\n%s", c.limits, failed, c.failures, out)
		}
		if c.failures == 0 {
			continue
		}
		task := out[strings.Index(out, "TASK ["+c.task+"]"):]
		for _, want := range []string{"fatal: [a]: FAILED!", "fatal: [b]: FAILED!", "template too expensive: " + c.limit} {
			if !strings.Contains(task, want) {
				t.Errorf("%+v: the task's output lacks %q:\n%s", c.limits, want, out)
			}
		}
	}
}
