package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	reTimes     = regexp.MustCompile(`"(delta|start|end)": "[^"]*"`)
	reJobID     = regexp.MustCompile(`j\d+\.\d+`)
	reAsyncDir  = regexp.MustCompile(`"results_file": "[^"]*/`)
	reUnreach   = regexp.MustCompile(`(\| UNREACHABLE!: ).*`)
	reUnreachJS = regexp.MustCompile(`"msg": "[^"]*"(,\s*"unreachable": true)`)
)

// normalizeAdHoc keeps of an ad-hoc run's output what must not vary: the
// times of a command, job ids, the async directory and the text of a
// connection error become placeholders, and the hosts' results, which
// arrive in any order, are sorted.
func normalizeAdHoc(out string) string {
	out = reTimes.ReplaceAllString(out, `"$1": "TIME"`)
	out = reJobID.ReplaceAllString(out, "JOB")
	out = reAsyncDir.ReplaceAllString(out, `"results_file": "DIR/`)
	out = reUnreach.ReplaceAllString(out, "${1}MSG")
	out = reUnreachJS.ReplaceAllString(out, `"msg": "MSG"$1`)
	var blocks []string
	var tail string
	for _, l := range strings.SplitAfter(out, "\n") {
		switch {
		case strings.HasPrefix(l, "exit "):
			tail += l
		case strings.Contains(l, " | ") || len(blocks) == 0:
			blocks = append(blocks, l)
		default:
			blocks[len(blocks)-1] += l
		}
	}
	sort.Strings(blocks)
	return strings.Join(blocks, "") + tail
}

// TestAdHocAgainstAnsible runs each case of testdata/adhoc/cases.txt with
// tender run and compares stdout and the exit status with what the ansible
// command printed (recorded by testdata/adhoc/gen.sh).
func TestAdHocAgainstAnsible(t *testing.T) {
	wd, _ := os.Getwd()
	dir := filepath.Join(wd, "testdata", "adhoc")
	f, err := os.Open(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Chdir(dir)
	t.Setenv("ANSIBLE_NOCOLOR", "1")
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, args, _ := strings.Cut(line, "|")
		want, err := os.ReadFile(name + ".out")
		if err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(name, func(t *testing.T) {
			argv := append([]string{"run", "-i", "hosts", "-f", "1", "--ssh-config", "none", "--no-progress"}, splitArgs(args)...)
			code, out, errOut := runCLI(t, argv...)
			got := out + fmt.Sprintf("exit %d\n", code)
			if g, w := normalizeAdHoc(got), normalizeAdHoc(string(want)); g != w {
				t.Errorf("tender %s\n--- got\n%s--- want (ansible)\n%s--- stderr\n%s", strings.Join(argv, " "), g, w, errOut)
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d cases in testdata/adhoc/cases.txt", n)
	}
}

// TestAdHocRefusals: what tender run refuses before touching a host, with
// the ansible command's exit status 5 for bad options.
func TestAdHocRefusals(t *testing.T) {
	inv := filepath.Join("testdata", "adhoc", "hosts")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"localhost"}, "no argument passed to command module"},
		{[]string{"site.yml", "-m", "shell"}, "no argument passed to shell module (did you mean tender play?)"},
		{[]string{"localhost", "-t", "out", "-m", "ping"}, "--tree is not supported"},
		{[]string{"localhost", "-m", "import_playbook", "-a", "x.yml"}, `"import_playbook" is not a valid action for ad-hoc commands`},
		{[]string{"localhost", "-m", "nosuch"}, `-m nosuch -a "": couldn't resolve module/action "nosuch"`},
		{[]string{"localhost", "extra", "-m", "ping"}, "give one host PATTERN"},
		{[]string{"localhost", "-M", "lib", "-m", "ping"}, "-M/--module-path is not supported by tender run yet"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, append([]string{"run", "-i", inv}, c.args...)...)
		if code != 5 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 5 and %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestAdHocPlaybookDir: relative paths in the arguments resolve against
// --playbook-dir (the current directory without it), and so do its
// group_vars/.
func TestAdHocPlaybookDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "group_vars"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "hosts"), "localhost ansible_connection=local\n")
	write(t, filepath.Join(dir, "files", "motd"), "hello\n")
	write(t, filepath.Join(dir, "group_vars", "all.yml"), "greeting: from group_vars\n")
	dest := filepath.Join(dir, "out")
	code, out, errOut := runCLI(t, "run", "-i", filepath.Join(dir, "hosts"), "--playbook-dir", dir,
		"localhost", "-m", "copy", "-a", "src=motd dest="+dest)
	if code != 0 || !strings.HasPrefix(out, "localhost | CHANGED => {") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if b, err := os.ReadFile(dest); err != nil || string(b) != "hello\n" {
		t.Errorf("copied %q, %v", b, err)
	}
	code, out, errOut = runCLI(t, "run", "-i", filepath.Join(dir, "hosts"), "--playbook-dir", dir,
		"localhost", "-m", "debug", "-a", "var=greeting")
	if code != 0 || !strings.Contains(out, `"greeting": "from group_vars"`) {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestAdHocJSON: --json gives the run's events, the result naming the
// module.
func TestAdHocJSON(t *testing.T) {
	inv := filepath.Join("testdata", "adhoc", "hosts")
	code, out, errOut := runCLI(t, "run", "-i", inv, "--json", "localhost", "-a", "echo hi")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var result map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if e["event"] == "host_result" {
			result = e
		}
	}
	if result == nil || result["host"] != "localhost" || result["status"] != "changed" {
		t.Fatalf("no changed host_result for localhost in\n%s", out)
	}
	if r, _ := result["result"].(map[string]any); r["stdout"] != "hi" {
		t.Errorf("result %v", result["result"])
	}
}

// TestAdHocModuleNameSetting: without -m, tender run runs the module
// ansible.cfg's [defaults] module_name names, as the ansible command does
// (command when nothing names one), and the setting is not warned about.
func TestAdHocModuleNameSetting(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ansible.cfg")
	if err := os.WriteFile(cfg, []byte("[defaults]\nmodule_name = ping\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inv, _ := filepath.Abs(filepath.Join("testdata", "adhoc", "hosts"))
	t.Setenv("ANSIBLE_CONFIG", cfg)
	code, out, errOut := runCLI(t, "run", "-i", inv, "localhost")
	if code != 0 || !strings.Contains(out, `"ping": "pong"`) || strings.Contains(errOut, "DEFAULT_MODULE_NAME") {
		t.Errorf("module_name = ping: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("ANSIBLE_CONFIG", "")
	if code, _, errOut = runCLI(t, "run", "-i", inv, "localhost"); code != 5 || !strings.Contains(errOut, "no argument passed to command module") {
		t.Errorf("no module_name: exit %d\n%s", code, errOut)
	}
}

// TestSubscriptPastTheMatch: a subscript that picks no host of its
// match (web[9] of two hosts) is Ansible's error, as recorded from
// ansible and ansible-playbook 2.14: the ad hoc command warns that no
// hosts matched, then fails (or, only listing, lists none); in --limit
// it fails at once; a play's hosts end the run before its banner, with
// no recap. A [x-y] subscript is warned about.
func TestSubscriptPastTheMatch(t *testing.T) {
	dir := t.TempDir()
	inv := filepath.Join(dir, "hosts")
	pb := filepath.Join(dir, "pb.yml")
	old := filepath.Join(dir, "old.yml")
	files := map[string]string{
		inv: "[web]\nw1 ansible_connection=local\nw2 ansible_connection=local\n",
		pb:  "- hosts: web[5]\n  gather_facts: false\n  tasks:\n    - debug: msg=hi\n",
		old: "- hosts: web[0-0]\n  gather_facts: false\n  tasks:\n    - debug: msg=hi\n",
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const noHosts = "[WARNING]: No hosts matched, nothing to do"
	const subscript = "No hosts matched the subscripted pattern 'web[9]'"
	for _, c := range []struct {
		args     []string
		code     int
		out, err []string
		notErr   string
	}{
		{[]string{"run", "-i", inv, "web[9]", "-m", "ping"}, 1, nil, []string{noHosts, subscript}, ""},
		{[]string{"run", "-i", inv, "web[9]", "-m", "ping", "--list-hosts"}, 0, []string{"  hosts (0):"}, []string{noHosts}, subscript},
		{[]string{"run", "-i", inv, "web", "-m", "ping", "--list-hosts", "--limit", "web[9]"}, 1, nil, []string{subscript}, noHosts},
		{[]string{"play", "-i", inv, pb}, 1, nil, []string{"No hosts matched the subscripted pattern 'web[5]'"}, ""},
		{[]string{"play", "-i", inv, old}, 0, []string{"ok: [w1]"},
			[]string{"[WARNING]: Use [x:y] inclusive subscripts instead of [x-y] which has been removed"}, ""},
	} {
		code, out, errOut := runCLI(t, c.args...)
		bad := code != c.code || (c.notErr != "" && strings.Contains(errOut, c.notErr))
		for _, s := range c.out {
			bad = bad || !strings.Contains(out, s)
		}
		for _, s := range c.err {
			bad = bad || !strings.Contains(errOut, s)
		}
		if c.args[0] == "play" && c.code != 0 {
			bad = bad || strings.Contains(out, "PLAY")
		}
		if bad {
			t.Errorf("%v: exit %d\n%s%s", c.args, code, out, errOut)
		}
	}
}
