package shared

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// result turns the copy script's verdict into Ansible's return values:
// a changed file reports md5sum and the staging file as src; an unchanged
// one reports path and the file module's diff; remote_src reports both
// md5sum and src always.
func (j CopyJob) result(env *tasks.Env, out transport.Result) (tasks.Result, error) {
	v := ParseVerdict(BeforeMarker(out.Stdout))
	data := map[string]any{}
	res := tasks.Result{Data: data}
	if v["failed"] == "1" {
		res.Failed, res.Msg = true, strings.TrimSpace(v["msg"])
		FailDetails(v, data)
		if !j.Remote {
			data["checksum"], data["diff"] = j.Sum, []any{}
		}
		if fp := v["failpath"]; fp != "" {
			data["path"] = fp
			InfoData(data, v, "")
		}
		return res, nil
	}
	switch v["verdict"] {
	case "noforce":
		data["dest"], data["src"] = v["dest"], StagingName(v["dest"])
		return res, nil
	case "invalid":
		stdout, _ := Section(out.Stdout, "stdout", "stderr")
		stderr, _ := Section(out.Stdout, "stderr", "")
		stdout, stderr = strings.TrimSuffix(stdout, "\n"), strings.TrimSuffix(stderr, "\n")
		data["checksum"], data["exit_status"] = j.Sum, Atoi(v["rc"])
		data["stdout"], data["stdout_lines"] = stdout, Lines(stdout)
		data["stderr"], data["stderr_lines"] = stderr, Lines(stderr)
		data["diff"] = []any{}
		res.Failed, res.Msg = true, "failed to validate"
		return res, nil
	case "tree":
		data["checksum"], data["md5sum"], data["dest"], data["src"] = nil, nil, v["reported"], j.Source
		res.Changed = v["changed"] == "1"
		InfoData(data, v, "")
		return res, nil
	case "done":
	default:
		res.Failed, res.Msg = true, ScriptError(out)
		return res, nil
	}
	res.Changed = v["changed"] == "1"
	content := v["content_changed"] == "1"
	if j.Check && content {
		if !j.Remote {
			data["diff"] = j.diffList(v, out)
		}
		if j.Diff {
			res.Diff = j.textDiff(v["dest"], out, true)
		}
		return res, nil
	}
	InfoData(data, v, "")
	data["dest"], data["checksum"] = v["dest"], j.Sum
	if j.Remote {
		data["checksum"] = v["checksum"]
	}
	if v["backup_file"] != "" {
		data["backup_file"] = v["backup_file"]
	}
	switch {
	case j.Remote:
		data["md5sum"], data["src"] = v["md5sum"], j.Source
	case content:
		data["md5sum"], data["src"] = v["md5sum"], v["src"]
		data["diff"] = j.diffList(v, out)
	default:
		data["path"] = v["dest"]
		before, after := map[string]any{"path": v["dest"]}, map[string]any{"path": v["dest"]}
		AttrDiff(v, before, after)
		data["diff"] = map[string]any{"before": before, "after": after}
	}
	if j.Diff && res.Changed {
		res.Diff = j.textDiff(v["dest"], out, content)
	}
	return res, nil
}

// StagingName is what a copy would have staged the content as, for the
// src Ansible reports when force=no leaves the file alone.
func StagingName(dest string) string {
	i := strings.LastIndex(dest, "/")
	return dest[:i+1] + ".tender-XXXXXXXX"
}

// maxDiff is Ansible's MAX_FILE_SIZE_FOR_DIFF: larger files are not
// diffed.
const maxDiff = 104448

// diffList is the "diff" Ansible's copy registers: empty without --diff;
// with it, one entry with the old and new contents and their headers, or
// markers saying why a side is left out (binary, larger than maxDiff).
func (j CopyJob) diffList(v Verdict, out transport.Result) []any {
	if !j.Diff {
		return []any{}
	}
	return []any{j.diffEntry(v, out)}
}

// diffEntry is the one entry of diffList.
func (j CopyJob) diffEntry(v Verdict, out transport.Result) map[string]any {
	d := map[string]any{}
	before, ok := Section(out.Stdout, "before", "")
	switch {
	case v["before_exists"] != "1":
		d["before"] = ""
	case v["before_large"] == "1":
		d["dst_larger"] = maxDiff
	case !ok:
	case strings.Contains(before[:min(len(before), 8192)], "\x00"):
		d["dst_binary"] = 1
	default:
		d["before_header"], d["before"] = v["dest"], before
	}
	after := j.Content
	if after == nil && j.LocalPath != "" {
		if fi, err := os.Stat(j.LocalPath); err == nil && fi.Size() <= maxDiff {
			after, _ = os.ReadFile(j.LocalPath)
		}
	}
	switch {
	case j.FromContent:
		// Ansible names the controller's temporary file; tender the
		// staging file on the host.
		label := v["src"]
		if label == "" {
			label = StagingName(v["dest"])
		}
		d["after_header"], d["after"] = label, string(after)
	case after == nil:
		d["src_larger"] = maxDiff
	case bytes.Contains(after, []byte{0}):
		d["src_binary"] = 1
	default:
		d["after_header"], d["after"] = j.LocalPath, string(after)
	}
	return d
}

// textDiff renders the change as a unified diff: the old content (sent
// back by the script when --diff asked for it) against the new one.
func (j CopyJob) textDiff(dest string, out transport.Result, content bool) string {
	v := ParseVerdict(BeforeMarker(out.Stdout))
	if !content {
		if v["before_mode"] != "" {
			return fmt.Sprintf("--- before: %s\n+++ after: %s\n@@ mode @@\n-%s\n+%s\n", dest, dest, octal4(v["before_mode"]), octal4(v["after_mode"]))
		}
		return ""
	}
	if j.Remote {
		return fmt.Sprintf("--- before: %s\n+++ after: %s\ncontent changed\n", dest, j.Source)
	}
	d := j.diffEntry(v, out)
	b, bok := d["before"].(string)
	a, aok := d["after"].(string)
	if !bok || !aok {
		return fmt.Sprintf("--- before: %s\n+++ after: %s\nBinary or large file: content changed\n", dest, dest)
	}
	return UnifiedDiff(dest, b, a)
}
