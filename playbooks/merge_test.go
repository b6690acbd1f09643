package playbooks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMergeChainLoadsOnce: tasks that each merge the one before (<<:) are
// read once each: the loader used to resolve the whole chain again for
// every link, quadratic in the playbook's length (a 150 kB playbook took
// seconds, and twice the size four times longer).
func TestMergeChainLoadsOnce(t *testing.T) {
	const n = 4000
	var b strings.Builder
	b.WriteString("- hosts: all\n  tasks:\n    - &t0 {name: t0, debug: msg=x, tags: [a], when: x is defined, ignore_errors: true}\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    - &t%d {<<: *t%d, name: t%d}\n", i, i-1, i)
	}
	dir := writeFiles(t, map[string]string{"pb.yml": b.String()})
	start := time.Now()
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("loading %d kB took %v", b.Len()>>10, took)
	}
	tasks := pb.Plays[0].Tasks
	if len(tasks) != n+1 || tasks[n].Name != fmt.Sprint("t", n) || tasks[n].Module != "debug" || !tasks[n].IgnoreErrors.True() {
		t.Errorf("the last task: %+v", tasks[len(tasks)-1])
	}
}
