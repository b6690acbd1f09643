package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExitCodesAsAnsible runs tender play with the arguments of each case
// in testdata/exit/cases.txt and compares its exit status and its stdout
// with what ansible-playbook gave for the same arguments in the same
// directory (recorded by testdata/exit/gen.sh): success, a failed task, an
// unreachable host, a parse error, an unknown option, a missing playbook
// or inventory, a --limit that matches nothing, several playbooks.
func TestExitCodesAsAnsible(t *testing.T) {
	dir, err := filepath.Abs("testdata/exit")
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	f, err := os.Open(filepath.Join(dir, "codes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, code, _ := strings.Cut(sc.Text(), " ")
		n, err := strconv.Atoi(code)
		if err != nil {
			t.Fatalf("codes.txt: %q", sc.Text())
		}
		codes[name] = n
	}
	cases, err := os.ReadFile(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for k, v := range map[string]string{"ANSIBLE_CONFIG": "empty.cfg", "ANSIBLE_NOCOLOR": "1", "ANSIBLE_FORKS": "1",
		"ANSIBLE_HOST_KEY_CHECKING": "0", "ANSIBLE_RETRY_FILES_ENABLED": "0", "ANSIBLE_LOCALHOST_WARNING": "0",
		"ANSIBLE_DEPRECATION_WARNINGS": "0"} {
		t.Setenv(k, v)
	}
	n := 0
	for _, line := range strings.Split(string(cases), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, args, _ := strings.Cut(line, "|")
		name, compareOut := strings.CutSuffix(name, "+out")
		want, ok := codes[name]
		if !ok {
			t.Fatalf("case %s has no recorded exit status: rerun gen.sh", name)
		}
		wantOut, err := os.ReadFile(filepath.Join("out", name))
		if err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(name, func(t *testing.T) {
			// Leading ANSIBLE_X=value words are the case's environment.
			words := strings.Fields(args)
			stdin = strings.NewReader("")
			if in, ok := strings.CutPrefix(words[0], "STDIN="); ok {
				stdin = strings.NewReader(strings.ReplaceAll(in, ",", "\n") + "\n")
				words = words[1:]
			}
			for len(words) > 0 && strings.HasPrefix(words[0], "ANSIBLE_") && strings.Contains(words[0], "=") {
				k, v, _ := strings.Cut(words[0], "=")
				t.Setenv(k, v)
				words = words[1:]
			}
			code, out, errOut := runCLI(t, append([]string{"play"}, words...)...)
			if code != want {
				t.Errorf("tender play %s: exit %d, ansible-playbook exits %d\nstderr: %s", args, code, want, errOut)
			}
			got := strings.ReplaceAll(out, dir+"/", "@DIR@/")
			if name == "retry-file" {
				// The retry file lists the failed host, as Ansible's.
				if data, err := os.ReadFile("/tmp/tender-retry/partial.retry"); err != nil || string(data) != "there\n" {
					t.Errorf("retry file: %q %v", data, err)
				}
				os.RemoveAll("/tmp/tender-retry")
			}
			if compareOut && got != string(wantOut) {
				t.Errorf("tender play %s: stdout\n%s\n--- ansible-playbook's\n%s", args, got, wantOut)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d cases", n)
	}
}
