package builtin

import (
	"bytes"
	"fmt"
	"os"
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
			data["diff"] = j.diffList(v, out)
		}
		if j.diff {
			res.Diff = j.textDiff(v["dest"], out, true)
		}
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
		data["diff"] = j.diffList(v, out)
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

// maxDiff is Ansible's MAX_FILE_SIZE_FOR_DIFF: larger files are not
// diffed.
const maxDiff = 104448

// diffList is the "diff" Ansible's copy registers: empty without --diff;
// with it, one entry with the old and new contents and their headers, or
// markers saying why a side is left out (binary, larger than maxDiff).
func (j copyJob) diffList(v verdict, out transport.Result) []any {
	if !j.diff {
		return []any{}
	}
	return []any{j.diffEntry(v, out)}
}

// diffEntry is the one entry of diffList.
func (j copyJob) diffEntry(v verdict, out transport.Result) map[string]any {
	d := map[string]any{}
	before, ok := section(out.Stdout, "before", "")
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
	after := j.content
	if after == nil && j.localPath != "" {
		if fi, err := os.Stat(j.localPath); err == nil && fi.Size() <= maxDiff {
			after, _ = os.ReadFile(j.localPath)
		}
	}
	switch {
	case j.fromContent:
		// Ansible names the controller's temporary file; tender the
		// staging file on the host.
		label := v["src"]
		if label == "" {
			label = stagingName(v["dest"])
		}
		d["after_header"], d["after"] = label, string(after)
	case after == nil:
		d["src_larger"] = maxDiff
	case bytes.Contains(after, []byte{0}):
		d["src_binary"] = 1
	default:
		d["after_header"], d["after"] = j.localPath, string(after)
	}
	return d
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
	if j.remote {
		return fmt.Sprintf("--- before: %s\n+++ after: %s\ncontent changed\n", dest, j.source)
	}
	d := j.diffEntry(v, out)
	b, bok := d["before"].(string)
	a, aok := d["after"].(string)
	if !bok || !aok {
		return fmt.Sprintf("--- before: %s\n+++ after: %s\nBinary or large file: content changed\n", dest, dest)
	}
	return unifiedDiff(dest, b, a)
}
