package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

const sideJSON = `{"plays": [{"play": {"name": "fuzz"}, "tasks": [
  {"task": {"name": "t1", "id": "1"}, "hosts": {"h1": {"changed": true, "rc": 0, "stdout": "DIR/x",
     "delta": "0:00:00.01", "_ansible_no_log": false, "invocation": {}}}},
  {"task": {"name": "meta", "id": "2"}, "hosts": {}},
  {"task": {"name": "t2", "id": "3"}, "hosts": {"h1": {"msg": "hi", "results": [{"item": 1, "changed": false}]}}}
]}], "stats": {"h1": {"ok": 2, "changed": 1, "failures": 0, "skipped": 0, "rescued": 0, "ignored": 0, "unreachable": 0}}}`

func side(t *testing.T, dir string, edit func(string) string) *Side {
	t.Helper()
	text := strings.ReplaceAll(sideJSON, "DIR", dir)
	if edit != nil {
		text = edit(text)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		t.Fatal(err)
	}
	return &Side{JSON: j, Dir: dir, State: []string{"f1 file 0644 1 \"a\""}}
}

// TestCompareSame: two runs that differ only in noise (their directories,
// times, a key one tool alone returns, a meta task's start recorded twice)
// do not diverge.
func TestCompareSame(t *testing.T) {
	a := side(t, "/r/a", func(s string) string {
		return strings.Replace(s, `"hosts": {}}`, `"hosts": {}}, {"task": {"name": "meta", "id": "9"}, "hosts": {}}`, 1)
	})
	b := side(t, "/r/t", func(s string) string {
		s = strings.Replace(s, `"0:00:00.01"`, `"0:00:00.02"`, 1)
		return strings.Replace(s, `"msg": "hi"`, `"msg": "hi", "extra": 1`, 1)
	})
	if d := Compare(a, b); d != nil {
		t.Fatalf("differences: %q", d)
	}
}

// TestCompareFinds: a planted difference in each part is reported.
func TestCompareFinds(t *testing.T) {
	for _, c := range []struct {
		edit func(*Side)
		want string
	}{
		{func(s *Side) { s.Exit = 2 }, "exit: ansible 0, tender 2"},
		{func(s *Side) { s.State = append(s.State, "f2 dir 0755") }, "state: tender only: f2 dir 0755"},
		{func(s *Side) {
			s.JSON["stats"].(map[string]any)["h1"].(map[string]any)["ok"] = 3.0
		}, "recap h1: ansible ok=2 "},
		{func(s *Side) {
			*s = *side(t, "/r/t", func(x string) string { return strings.Replace(x, `"rc": 0`, `"rc": 1`, 1) })
		}, `task 0 "t1" h1.rc: ansible 0, tender 1`},
		{func(s *Side) {
			*s = *side(t, "/r/t", func(x string) string { return strings.Replace(x, `"item": 1, "changed": false`, `"item": 1`, 1) })
		}, `task 2 "t2" h1.results[0].changed: ansible false, tender absent`},
		{func(s *Side) {
			*s = *side(t, "/r/t", func(x string) string { return strings.Replace(x, `"name": "t2"`, `"name": "t3"`, 1) })
		}, `task 2: ansible ran "t2", tender "t3"`},
	} {
		a, b := side(t, "/r/a", nil), side(t, "/r/t", nil)
		c.edit(b)
		d := Compare(a, b)
		if len(d) == 0 || !strings.HasPrefix(d[0], c.want) {
			t.Errorf("want %q, got %q", c.want, d)
		}
	}
}

// TestKnown: DIFFERENCES.md parses, and a listed difference is known
// while others are not.
func TestKnown(t *testing.T) {
	kn, err := ParseKnown("# x\n\n## One\n\nwhy\n\nMatch: `^exit: ansible 4`\n")
	if err != nil || len(kn) != 1 || kn[0].Title != "One" {
		t.Fatalf("%v %+v", err, kn)
	}
	d := []string{"exit: ansible 4, tender 2", "recap h1: …"}
	if u := Unknown(d, kn); len(u) != 1 || u[0] != d[1] {
		t.Fatalf("unknown: %q", u)
	}
	if _, err := ParseKnown("Match: `(`"); err == nil {
		t.Fatal("a bad expression parsed")
	}
}

// TestDifferencesFile: the repository's DIFFERENCES.md parses and each
// entry has a reproducer's reason beside its Match line.
func TestDifferencesFile(t *testing.T) {
	kn := loadKnown(t)
	if got := Unknown([]string{`task 0 "debug" h1.item.key: ansible true, tender "True"`,
		`task 0 "fail" h2.results[0].item.key: ansible 1, tender "1.0"`, `task 0 "x" h1.item.key: ansible -3, tender "-3"`}, kn); len(got) != 0 {
		t.Errorf("the mapping keys entry does not match: %q", got)
	}
	jsonKey := `task 0 "debug" h3.(({v1: v0} | combine(v5)) | to_json): ansible "{\"true\": 2, \"b\": true}", tender "{\"True\": 2, \"b\": true}"`
	if got := Unknown([]string{jsonKey}, kn); len(got) != 0 {
		t.Errorf("the mapping keys entry does not match JSON text: %q", got)
	}
	if got := Unknown([]string{strings.Replace(jsonKey, `2, \"b`, `3, \"b`, 1)}, kn); len(got) != 1 {
		t.Errorf("JSON texts that differ elsewhere matched: %q", got)
	}
	// A back-reference: two numbers that differ are a divergence.
	if got := Unknown([]string{`task 0 "x" h1.item.key: ansible 2, tender "1"`}, kn); len(got) != 1 {
		t.Errorf("different numbers matched: %q", got)
	}
}

// TestCallbackFailure: when ansible-playbook's json callback fails (it
// cannot sort a dict whose keys mix None and str), the divergence says so.
func TestCallbackFailure(t *testing.T) {
	a := &Side{Tool: "ansible", Stderr: "[WARNING]: Failure using method (v2_playbook_on_stats) in callback plugin\n" +
		"(<ansible_collections.ansible.posix.plugins.callback.json.CallbackModule object\n" +
		"at 0x7fc9cd039550>): '<' not supported between instances of 'str' and\n'NoneType'\n"}
	b := side(t, "/r/t", nil)
	d := Compare(a, b)
	want := "json: ansible false, tender true (ansible's callback failed in v2_playbook_on_stats: '<' not supported between instances of 'str' and 'NoneType')"
	if len(d) == 0 || d[0] != want {
		t.Fatalf("got %q\nwant %q", d, want)
	}
	a.Stderr = "ERROR! something else\n"
	if d := Compare(a, b); d[0] != "json: ansible false, tender true" {
		t.Fatalf("got %q", d)
	}
}

// TestSortBooleans: Ansible lists the valid booleans in its set's order,
// which changes from run to run; the same set in any order compares equal.
func TestSortBooleans(t *testing.T) {
	a := sortBooleans("The value 'h3' is not a valid boolean.  Valid booleans include: 'off', 1, 0, 'false', 'f'\n\nmore")
	b := sortBooleans("The value 'h3' is not a valid boolean.  Valid booleans include: 0, 'f', 'false', 1, 'off'\n\nmore")
	if a != b || !strings.HasSuffix(a, "\n\nmore") {
		t.Fatalf("%q != %q", a, b)
	}
	if c := sortBooleans("Valid booleans include: 'off', 1, 1.0, 0"); c == a {
		t.Fatalf("a different set compares equal: %q", c)
	}
}

// TestCrash: an exception ansible-playbook did not expect is named in the
// exit and json lines.
func TestCrash(t *testing.T) {
	a := &Side{Tool: "ansible", Exit: 250, Stderr: "ERROR! Unexpected Exception, this is probably a bug: unsupported operand type(s) for |=: 'bool' and 'str'\nto see the full traceback, use -vvv\n"}
	b := side(t, "/r/t", nil)
	b.Exit = 2
	d := Compare(a, b)
	const why = " (ansible crashed: unsupported operand type(s) for |=: 'bool' and 'str')"
	if len(d) < 2 || d[0] != "exit: ansible 250, tender 2"+why || d[1] != "json: ansible false, tender true"+why {
		t.Fatalf("got %q", d)
	}
	// What tender did after the point where Ansible crashed is not
	// compared; without the crash it is.
	b.State = []string{"f2-h2 file 0644 0 \"\""}
	if d := Compare(a, b); len(d) != 2 {
		t.Fatalf("the state after a crash is compared: %q", d)
	}
	a.Stderr = ""
	if d := Compare(a, b); len(d) != 3 || !strings.HasPrefix(d[2], "state: ") {
		t.Fatalf("the state is not compared: %q", d)
	}
}

// TestSelfContradiction: an exit status of ansible-playbook's that its
// own recap contradicts (failures, yet 0) is named.
func TestSelfContradiction(t *testing.T) {
	a := side(t, "/r/a", func(s string) string { return strings.Replace(s, `"failures": 0`, `"failures": 1`, 1) })
	b := side(t, "/r/t", func(s string) string { return strings.Replace(s, `"failures": 0`, `"failures": 1`, 1) })
	b.Exit = 2
	d := Compare(a, b)
	if len(d) == 0 || d[0] != "exit: ansible 0, tender 2 (ansible's exit disagrees with its recap)" {
		t.Fatalf("got %q", d)
	}
	a.Exit = 2
	b.Exit = 0
	if d := Compare(a, b); len(d) == 0 || d[0] != "exit: ansible 2, tender 0" {
		t.Fatalf("got %q", d)
	}
	// No failure in Ansible's recap, yet it exits 2.
	a, b = side(t, "/r/a", nil), side(t, "/r/t", nil)
	a.Exit = 2
	if d := Compare(a, b); len(d) == 0 || d[0] != "exit: ansible 2, tender 0 (ansible's exit disagrees with its recap)" {
		t.Fatalf("got %q", d)
	}
}

// TestRefile: a host's result that Ansible's json callback filed under a
// handler that ran meanwhile on another host is compared where it
// belongs; one that is not tender's anywhere still differs.
func TestRefile(t *testing.T) {
	const ans = `{"plays": [{"tasks": [
  {"task": {"name": "hd0"}, "hosts": {"h1": {"action": "set_fact"}, "h2": {"action": "debug", "msg": "x"}}},
  {"task": {"name": "debug"}, "hosts": {"h1": {"action": "debug", "msg": "x"}}}]}]}`
	const ten = `{"plays": [{"tasks": [
  {"task": {"name": "hd0"}, "hosts": {"h1": {"action": "set_fact"}}},
  {"task": {"name": "debug"}, "hosts": {"h1": {"action": "debug", "msg": "x"}, "h2": {"action": "debug", "msg": "x"}}}]}]}`
	var a, b map[string]any
	if err := json.Unmarshal([]byte(ans), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(ten), &b); err != nil {
		t.Fatal(err)
	}
	if d := compareTasks(a, b); len(d) != 0 {
		t.Fatalf("refiled result still differs: %q", d)
	}
	const ten2 = `{"plays": [{"tasks": [
  {"task": {"name": "hd0"}, "hosts": {"h1": {"action": "set_fact"}}},
  {"task": {"name": "debug"}, "hosts": {"h1": {"action": "debug", "msg": "x"}}}]}]}`
	json.Unmarshal([]byte(ans), &a)
	json.Unmarshal([]byte(ten2), &b)
	if d := compareTasks(a, b); len(d) != 1 || d[0] != `task 0 "hd0" h2: ansible only` {
		t.Fatalf("got %q", d)
	}
}

// TestKnownAnsibleUnicode: a type error that names AnsibleUnicode where
// tender says str, once or twice, is the listed difference; another
// change to the message is not.
func TestKnownAnsibleUnicode(t *testing.T) {
	kn := loadKnown(t)
	m := "'>' not supported between instances of 'int' and '%s'"
	a := fmt.Sprintf(m, "AnsibleUnicode")
	b := fmt.Sprintf(m, "str")
	known := []string{
		`task 0 "debug" h1.msg: ansible "Unexpected (x): ` + a + ". " + a + `", tender "Unexpected (x): ` + b + ". " + b + `"`,
		`task 0 "debug" h1.msg: ansible "` + a + `", tender "` + b + `"`,
	}
	if got := Unknown(known, kn); len(got) != 0 {
		t.Errorf("not matched: %q", got)
	}
	other := `task 0 "debug" h1.msg: ansible "` + a + ` x", tender "` + b + ` y"`
	if got := Unknown([]string{other}, kn); len(got) != 1 {
		t.Errorf("matched a different message: %q", other)
	}
}

// TestDirInContent: a file whose content names the side's directory
// differs between the sides only by it, and so do the checksums a task
// returns of it; a checksum that differs while no content names a
// directory is still a divergence.
func TestDirInContent(t *testing.T) {
	withSum := func(dir, sum string) *Side {
		s := side(t, dir, func(x string) string {
			return strings.Replace(x, `"rc": 0`, `"rc": 0, "checksum": "`+sum+`"`, 1)
		})
		s.State = []string{`f1 file 0644 12 "` + dir + `/x"`}
		return s
	}
	if d := Compare(withSum("/r/a", "aa11"), withSum("/r/t", "bb22")); d != nil {
		t.Errorf("differences: %q", d)
	}
	a, b := withSum("/r/a", "aa11"), withSum("/r/t", "bb22")
	a.State, b.State = []string{`f1 file 0644 1 "x"`}, []string{`f1 file 0644 1 "x"`}
	if d := Compare(a, b); len(d) != 1 || !strings.Contains(d[0], ".checksum: ansible \"aa11\", tender \"bb22\"") {
		t.Errorf("differences: %q", d)
	}
}

// loadKnown reads the entries of DIFFERENCES.md.
func loadKnown(t *testing.T) []Known {
	t.Helper()
	text, err := os.ReadFile("DIFFERENCES.md")
	if err != nil {
		t.Fatal(err)
	}
	kn, err := ParseKnown(string(text))
	if err != nil || len(kn) == 0 {
		t.Fatalf("%v: %d entries", err, len(kn))
	}
	return kn
}

// TestExceptionLastLine: a result's exception is compared by the
// exception its traceback ends with, not by Ansible's frames.
func TestExceptionLastLine(t *testing.T) {
	a := map[string]any{"exception": "Traceback (most recent call last):\n  File \"x.py\", line 1\nZeroDivisionError: division by zero\n"}
	same := map[string]any{"exception": "ZeroDivisionError: division by zero\n"}
	other := map[string]any{"exception": "ValueError: nope\n"}
	if d := diffValue("r", a, same); len(d) != 0 {
		t.Errorf("same exception: %v", d)
	}
	if d := diffValue("r", a, other); len(d) != 1 || !strings.Contains(d[0], "ValueError") {
		t.Errorf("another exception: %v", d)
	}
}

// TestModuleCrash: a module of Ansible's that crashed (MODULE FAILURE
// with a traceback) is named on the exit and recap lines it causes.
func TestModuleCrash(t *testing.T) {
	res := map[string]any{"action": "lineinfile", "msg": "MODULE FAILURE\nSee stdout/stderr for the exact error",
		"exception": "Traceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory: b'/x'\n", "failed": true}
	a := &Side{Tool: "ansible", Exit: 2, Dir: "/a-dir", JSON: map[string]any{
		"plays": []any{map[string]any{"tasks": []any{map[string]any{"hosts": map[string]any{"h1": res}}}}},
		"stats": map[string]any{"h1": map[string]any{"failures": 1.0}}}}
	tr := &Side{Tool: "tender", Exit: 0, Dir: "/t-dir", JSON: map[string]any{
		"plays": []any{map[string]any{"tasks": []any{map[string]any{"hosts": map[string]any{"h1": map[string]any{"action": "lineinfile", "msg": ""}}}}}},
		"stats": map[string]any{"h1": map[string]any{"failures": 0.0}}}}
	d := Compare(a, tr)
	want := " (ansible's module lineinfile crashed: FileNotFoundError: [Errno 2] No such file or directory: b'/x')"
	if len(d) < 2 || !strings.HasSuffix(d[0], want) || !strings.HasPrefix(d[1], "recap h1") || !strings.HasSuffix(d[1], want) {
		t.Fatalf("%q", d)
	}
	if len(d) < 3 || !strings.HasPrefix(d[2], "task 0 ") || !strings.HasSuffix(d[2], want) {
		t.Errorf("the task's own lines name the crash too: %q", d)
	}
	if !taskListsPartRE.MatchString(`task 2: only tender ran "x"`) || taskListsPartRE.MatchString(`task 2 "x" h1: tender only`) {
		t.Error("taskListsPartRE")
	}
	if moduleCrash(tr) != "" {
		t.Error("tender's side has no module crash")
	}
}

// TestUnknownCascade: a cascading known difference explains the
// differences of its task and later ones, and the run's totals, but not
// those of earlier tasks.
func TestUnknownCascade(t *testing.T) {
	kn, err := ParseKnown("## keys\n\nCascade: `\\.key: ansible false, tender \"False\"$`\n\nMatch: `^exit: ansible 9`\n")
	if err != nil {
		t.Fatal(err)
	}
	diffs := []string{
		`task 1 "debug" h1.msg: ansible "a", tender "b"`,
		`task 2 "assert" h1.results[0].item.key: ansible false, tender "False"`,
		`task 2 "assert" h1.results[0].skipped: ansible true, tender absent`,
		`task 3: only tender ran "x"`,
		`recap h1: ansible ok=1, tender ok=2`,
		`exit: ansible 2, tender 0`,
	}
	got := Unknown(diffs, kn)
	if len(got) != 1 || got[0] != diffs[0] {
		t.Fatalf("unknown: %q", got)
	}
	if got := Unknown(diffs[2:], kn); len(got) != 4 {
		t.Fatalf("without the cascading line every difference is unknown: %q", got)
	}
}
