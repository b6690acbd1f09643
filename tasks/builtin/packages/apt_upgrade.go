package packages

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// aptZero is what apt-get prints when an upgrade has nothing to do;
// Ansible's apt reports such an upgrade unchanged.
const aptZero = "\n0 upgraded, 0 newly installed"

// upgradeResult builds the result of an upgrade as Ansible's apt returns
// it: apt-get's output as msg and stdout, changed unless apt-get says
// nothing was upgraded or installed.
func (j aptJob) upgradeResult(v shared.Verdict, output string) tasks.Result {
	outLen, _ := strconv.Atoi(v["outlen"])
	outLen = min(max(outLen, 0), len(output))
	stdout, stderr := output[:outLen], output[outLen:]
	data := map[string]any{"msg": stdout, "stdout": stdout, "stderr": stderr,
		"stdout_lines": shared.Lines(stdout), "stderr_lines": shared.Lines(stderr)}
	res := tasks.Result{Msg: stdout, Stdout: stdout, Stderr: stderr, Data: data}
	if rc, _ := strconv.Atoi(v["rc"]); rc != 0 {
		res.Failed, res.RC, res.Stderr = true, rc, ""
		res.Msg = fmt.Sprintf("'%s' failed: %s", v["cmd"], stderr)
		res.Data = map[string]any{"msg": res.Msg, "stdout": stdout, "stdout_lines": shared.Lines(stdout), "rc": rc}
		return res
	}
	if strings.Contains(stdout, aptZero) {
		return res
	}
	res.Changed = true
	data["diff"] = map[string]any{}
	if j.diff {
		d := aptDiff(stdout)
		data["diff"] = d
		res.Diff = d["prepared"].(string)
	}
	return res
}
