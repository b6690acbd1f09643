package playbooks

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestVarsPromptLoad(t *testing.T) {
	for body, want := range map[string]string{
		"  vars_prompt:\n    - prompt: x\n":               "pb.yml:3:5: Invalid vars_prompt data structure, missing 'name' key",
		"  vars_prompt:\n    - name: x\n      echo: no\n": "found unsupported key 'echo'",
		"  vars_prompt: abc\n":                            "vars_prompt must be a list of dictionaries",
		"  vars_prompt:\n    - abc\n":                     "holds str",
		"  vars_prompt:\n    name: x\n    default: 1\n":   "",
	} {
		dir := writeFiles(t, map[string]string{"pb.yml": "- hosts: all\n" + body + "  tasks: []\n"})
		pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", body, err)
		case want == "" && (len(pb.Plays[0].VarsPrompt) != 1 || pb.Plays[0].VarsPrompt[0]["name"] != "x"):
			t.Errorf("%q: one mapping is a list of one: %v", body, pb.Plays[0].VarsPrompt)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: err = %v, want %q", body, err, want)
		}
	}
}
