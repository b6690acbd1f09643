package main

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestAgainstAnsible replays testdata/cases.txt through tender and compares
// the output with what ansible-inventory and ansible-playbook printed for
// the same arguments (recorded by testdata/gen.sh). One normalization: the
// hosts under "hosts (N):" are sorted on both sides, because
// ansible-playbook lists them in the order of a Python set.
func TestAgainstAnsible(t *testing.T) {
	f, err := os.Open("testdata/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wd, _ := os.Getwd()
	t.Chdir(filepath.Join(wd, "..", "..", "e2e"))
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "|", 3)
		name, tool, args := parts[0], parts[1], splitArgs(parts[2])
		want, err := os.ReadFile(filepath.Join(wd, "testdata", name+".out"))
		if err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tenderArgs(tool, args)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got, want := sortHostBlocks(out), sortHostBlocks(string(want)); got != want {
				t.Errorf("tender %v\n--- got\n%s\n--- want (ansible)\n%s", tenderArgs(tool, args), got, want)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d cases in testdata/cases.txt", n)
	}
}

// tenderArgs maps ansible-inventory's and ansible-playbook's arguments to
// tender's commands.
func tenderArgs(tool string, args []string) []string {
	if tool == "play" {
		return append([]string{"play"}, args...)
	}
	var out, rest []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--list":
			out = []string{"inventory", "list"}
		case "--host":
			out = []string{"inventory", "host", args[i+1]}
			i++
		case "--graph":
			out = []string{"inventory", "graph"}
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				out = append(out, args[i+1])
				i++
			}
		default:
			rest = append(rest, args[i])
		}
	}
	// urfave/cli reads flags before positional arguments.
	return append(out[:2:2], append(rest, out[2:]...)...)
}

// splitArgs splits a shell-like argument string, honouring single quotes.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

func sortHostBlocks(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "    hosts (") {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.HasPrefix(lines[j], "      ") {
			j++
		}
		sort.Strings(lines[i+1 : j])
		i = j - 1
	}
	return strings.Join(lines, "\n")
}
