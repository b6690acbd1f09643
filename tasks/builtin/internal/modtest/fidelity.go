package modtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// CompareRecorded runs the tasks of testdata/taskFile through env, with
// the variable root set to root, and compares each result with the one
// ansible-core registered for it (testdata/recorded), normalized on both
// sides as TestFidelity describes. The e2e tests use it on fleet hosts.
func CompareRecorded(t *testing.T, env *tasks.Env, root, files, taskFile, recorded string) {
	compareRecorded(t, env, root, files, taskFile, recorded, false)
}

// CompareRecordedMarked is CompareRecorded with every argument marked as
// data from a host is (but those a module evaluates): a module must give
// the same results for marked data as for plain.
func CompareRecordedMarked(t *testing.T, env *tasks.Env, root, files, taskFile, recorded string) {
	compareRecorded(t, env, root, files, taskFile, recorded, true)
}

func compareRecorded(t *testing.T, env *tasks.Env, root, files, taskFile, recorded string, marked bool) {
	var want map[string]map[string]any
	b, err := os.ReadFile(Path("testdata/" + recorded))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	vars := map[string]any{"root": root}
	scope := expr.NewVars(vars)
	templates, _ := filepath.Abs(Path("testdata/templates"))
	findFile := env.FindFile
	env.FindFile = func(kind, name string) (string, error) {
		if kind != "templates" {
			return findFile(kind, name)
		}
		p := filepath.Join(templates, name)
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("Could not find or access '%s'", name)
		}
		return p, nil
	}
	seen := 0
	for _, task := range LoadTaskList(t, Path("testdata/"+taskFile)) {
		name := task.Name
		got := runRecorded(t, env, scope, task, marked)
		if facts, ok := got["ansible_facts"].(map[string]any); ok {
			for k, v := range facts {
				vars[k] = v
			}
		}
		vars["r_"+name] = got
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: not recorded; run testdata/gen.sh", name)
			continue
		}
		if _, skip := knownTaskDiffs[name]; skip {
			continue
		}
		seen++
		g := Normalize(got, root, files)
		wn := Normalize(w, "", "")
		for _, k := range knownDiffs[name] {
			delete(g, k)
			delete(wn, k)
		}
		if os.Getenv("TENDER_TEST_BUSYBOX") != "" {
			// busybox has neither file nor lsattr: Ansible too answers
			// "unknown" and no attributes on such a host.
			for _, m := range []map[string]any{g, wn} {
				if st, ok := m["stat"].(map[string]any); ok {
					for _, k := range []string{"mimetype", "charset", "attributes", "attr_flags", "version"} {
						delete(st, k)
					}
				}
			}
		}
		if !reflect.DeepEqual(g, wn) {
			t.Errorf("%s:\n%s", name, DescribeDiff(g, wn))
		}
	}
	t.Logf("%d tasks compared with ansible-core", seen)
}

// knownTaskDiffs are tasks whose whole result differs on purpose.
var knownTaskDiffs = map[string]string{
	// Ansible's copy checks its arguments only when it transfers content;
	// for an unchanged file it hands the arguments it knows to the file
	// module and drops the rest silently. tender rejects unknown
	// parameters always.
	"copy_unsupported": "strict arguments",
	// On a host without SELinux, Ansible's selinux fails for want of the
	// libselinux Python library even when asked to disable it; tender
	// answers that SELinux is already disabled (selinux.go).
	"selinux_disabled_absent": "SELinux absent: disabled already holds",
}

// knownDiffs are the keys of a task's result left out of the comparison,
// each for a stated reason.
var knownDiffs = map[string][]string{
	// Ansible lists its controller search path (role, play and playbook
	// directories); tender's FindFile says what it searched its own way.
	"copy_missing_src": {"msg"},
	"tpl_missing_src":  {"msg"},
	// The renderer's message for an undefined variable names where in the
	// template it is; Ansible's repeats the variable's name.
	"tpl_undefined": {"msg"},
	// Temporary names are random.
	"tf_file": {"path"}, "tf_dir": {"path"}, "tf_missing_dir": {"msg"},
	// An action that skips check mode (assemble, fetch) registers no
	// failed key; tender's results always carry it.
	"as_check": {"failed"}, "fe_check": {"failed"},
	// Python's ping raises on purpose and returns its traceback.
	"ping_crash": {"module_stdout"},
	// Ansible fails for want of the libselinux Python library (with a
	// traceback); tender, which needs no Python, for want of the config.
	"selinux_enforcing_absent": {"msg", "details"},
	// A hashed host name is salted at random: the diffs show different
	// hashes.
	"kh_hashed":             {"diff"},
	"kh_hashed_again":       {"diff"},
	"kh_hashed_plain_again": {"diff"},
}

// Registered is what register: would store for res.
func Registered(res tasks.Result) map[string]any {
	out := map[string]any{}
	for k, v := range res.Data {
		out[k] = v
	}
	out["changed"], out["failed"] = res.Changed, res.Failed
	if res.Skipped {
		out["skipped"] = true
	}
	if _, ok := out["msg"]; !ok && res.Msg != "" {
		out["msg"] = res.Msg
	}
	if len(res.Warnings) > 0 {
		w := []any{}
		for _, s := range res.Warnings {
			w = append(w, s)
		}
		out["warnings"] = w
	}
	return out
}

// Normalize applies the normalization of TestFidelity's doc comment.
func Normalize(m map[string]any, root, files string) map[string]any {
	b, _ := json.Marshal(m)
	s := string(b)
	if root != "" {
		s = strings.ReplaceAll(s, root, "ROOT")
		s = strings.ReplaceAll(s, files, "FILES")
		s = strings.ReplaceAll(s, filepath.Join(filepath.Dir(files), "templates"), "TEMPLATES")
	}
	var out map[string]any
	json.Unmarshal([]byte(s), &out)
	for _, k := range []string{"invocation", "exception", "module_stderr"} {
		delete(out, k)
	}
	Staging(out, "src")
	if l, ok := out["diff"].([]any); ok && len(l) == 1 {
		if d, ok := l[0].(map[string]any); ok {
			Staging(d, "after_header")
		}
	}
	for _, k := range []string{"backup_file", "backup"} {
		if bf, ok := out[k].(string); ok {
			out[k] = backupStamp.ReplaceAllString(bf, ".TIME~")
		}
	}
	linkLen(out)
	if st, ok := out["stat"].(map[string]any); ok {
		linkLen(st)
	}
	if fs, ok := out["files"].([]any); ok {
		for _, f := range fs {
			if m, ok := f.(map[string]any); ok {
				linkLen(m)
			}
		}
	}
	return walk(out).(map[string]any)
}

// Staging replaces m[key] by TMPSRC when it names a staging file.
func Staging(m map[string]any, key string) {
	if s, ok := m[key].(string); ok && (strings.Contains(s, "/.ansible/tmp/") || strings.Contains(s, "/.tender-")) {
		m[key] = "TMPSRC"
	}
}

func linkLen(m map[string]any) {
	if m["state"] == "link" || m["islnk"] == true {
		m["size"] = "LINKLEN"
	}
}

// timeKeyNumber: a start, end or delta that is a number (a partition's
// bounds) is data, not a time, and is compared.
func timeKeyNumber(k string, v any) bool {
	switch v.(type) {
	case float64, int, int64, json.Number:
		return k == "start" || k == "end" || k == "delta"
	}
	return false
}

func walk(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if r, ok := volatile[k]; ok && e != nil && !timeKeyNumber(k, e) {
				x[k] = r
				continue
			}
			x[k] = walk(e)
		}
	case []any:
		for i, e := range x {
			x[i] = walk(e)
		}
	}
	return v
}

// DescribeDiff lists, key by key, how got differs from want.
func DescribeDiff(got, want map[string]any) string {
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var s strings.Builder
	for _, k := range names {
		g, gok := got[k]
		w, wok := want[k]
		if gok != wok || !reflect.DeepEqual(g, w) {
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			fmt.Fprintf(&s, "  %s: tender %s (present %v), ansible %s (present %v)\n", k, gj, gok, wj, wok)
		}
	}
	return s.String()
}

var (
	backupStamp = regexp.MustCompile(`\.\d+\.\d{4}-\d\d-\d\d@\d\d:\d\d:\d\d~$`)
	volatile    = map[string]string{"elapsed": "TIME", "start": "TIME", "end": "TIME", "delta": "TIME", "atime": "TIME", "mtime": "TIME", "ctime": "TIME", "inode": "INODE", "dev": "INODE", "version": "INODE"}
)
