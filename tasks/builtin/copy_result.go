package builtin

import (
	"fmt"
	"strings"

	"github.com/tender-sh/tender/provision/transport"
	"github.com/tender-sh/tender/tasks"
)

// result turns the copy script's verdict into Ansible's return values:
// a changed file reports md5sum and the staging file as src; an unchanged
// one reports path and the file module's diff; remote_src reports both
// md5sum and src always.
func (j copyJob) result(env *tasks.Env, out transport.Result) (tasks.Result, error) {
	v := parseVerdict(beforeMarker(out.Stdout))
	data := map[string]any{}
	res := tasks.Result{Data: data}
	if v["failed"] == "1" {
		res.Failed, res.Msg = true, strings.TrimSpace(v["msg"])
		if !j.remote {
			data["checksum"], data["diff"] = j.sum, []any{}
		}
		if fp := v["failpath"]; fp != "" {
			data["path"] = fp
			infoData(data, v, "")
		}
		return res, nil
	}
	switch v["verdict"] {
	case "noforce":
		data["dest"], data["src"] = v["dest"], stagingName(v["dest"])
		return res, nil
	case "invalid":
		stdout, _ := section(out.Stdout, "stdout", "stderr")
		stderr, _ := section(out.Stdout, "stderr", "")
		stdout, stderr = strings.TrimSuffix(stdout, "\n"), strings.TrimSuffix(stderr, "\n")
		data["checksum"], data["exit_status"] = j.sum, atoi(v["rc"])
		data["stdout"], data["stdout_lines"] = stdout, lines(stdout)
		data["stderr"], data["stderr_lines"] = stderr, lines(stderr)
		data["diff"] = []any{}
		res.Failed, res.Msg = true, "failed to validate"
		return res, nil
	case "tree":
		data["checksum"], data["md5sum"], data["dest"], data["src"] = nil, nil, v["reported"], j.source
		res.Changed = v["changed"] == "1"
		infoData(data, v, "")
		return res, nil
	case "done":
	default:
		res.Failed, res.Msg = true, scriptError(out)
		return res, nil
	}
	res.Changed = v["changed"] == "1"
	content := v["content_changed"] == "1"
	if j.check && content {
		if !j.remote {
			data["diff"] = []any{}
		}
		res.Diff = j.textDiff(v["dest"], out, true)
		return res, nil
	}
	infoData(data, v, "")
	data["dest"], data["checksum"] = v["dest"], j.sum
	if j.remote {
		data["checksum"] = v["checksum"]
	}
	if v["backup_file"] != "" {
		data["backup_file"] = v["backup_file"]
	}
	switch {
	case j.remote:
		data["md5sum"], data["src"] = v["md5sum"], j.source
	case content:
		data["md5sum"], data["src"] = v["md5sum"], v["src"]
		data["diff"] = []any{}
	default:
		data["path"] = v["dest"]
		before, after := map[string]any{"path": v["dest"]}, map[string]any{"path": v["dest"]}
		attrDiff(v, before, after)
		data["diff"] = map[string]any{"before": before, "after": after}
	}
	if j.diff && res.Changed {
		res.Diff = j.textDiff(v["dest"], out, content)
	}
	return res, nil
}

// stagingName is what a copy would have staged the content as, for the
// src Ansible reports when force=no leaves the file alone.
func stagingName(dest string) string {
	i := strings.LastIndex(dest, "/")
	return dest[:i+1] + ".tender-XXXXXXXX"
}

// textDiff renders the change as a unified diff: the old content (sent
// back by the script when --diff asked for it) against the new one.
func (j copyJob) textDiff(dest string, out transport.Result, content bool) string {
	v := parseVerdict(beforeMarker(out.Stdout))
	if !content {
		if v["before_mode"] != "" {
			return fmt.Sprintf("--- before: %s\n+++ after: %s\n@@ mode @@\n-%s\n+%s\n", dest, dest, octal4(v["before_mode"]), octal4(v["after_mode"]))
		}
		return ""
	}
	if j.content == nil {
		return fmt.Sprintf("--- before: %s\n+++ after: %s\nBinary or large file: content changed\n", dest, dest)
	}
	before, _ := section(out.Stdout, "before", "")
	return unifiedDiff(dest, before, string(j.content))
}
