package playbooks

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// keywordsBeyondDoc are the keywords tender takes at a level that
// ansible-doc does not list there, each with why Ansible takes it too.
var keywordsBeyondDoc = map[string]string{
	"task/local_action": "the older spelling of action with delegate_to: localhost, which Ansible's task parser accepts",
	"task/listen":       "a handler's topics: Ansible's Handler takes it, and ansible-doc has no handler level",
	"role/role":         "the role's name in a roles: entry, which Ansible's role reference reads (as name)",
}

// TestKeywordsDocumented: every keyword ansible-core 2.14 documents at a
// level (testdata/keywords/keywords.json, recorded by gen.sh) is one
// tender takes at that level, and tender takes no keyword there that
// Ansible does not. Those documented at no level (accelerate,
// accelerate_port) are refused everywhere, as Ansible 2.14 refuses them.
func TestKeywordsDocumented(t *testing.T) {
	data, err := os.ReadFile("testdata/keywords/keywords.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]struct {
		AppliesTo []string `json:"applies_to"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, level := range []string{"play", "role", "block", "task"} {
		ours := KeywordNames(level)
		for name, d := range doc {
			if slices.Contains(d.AppliesTo, level) && !slices.Contains(ours, name) {
				t.Errorf("%s: Ansible documents %s, tender does not take it", level, name)
			}
		}
		for _, name := range ours {
			if d, ok := doc[name]; ok && slices.Contains(d.AppliesTo, level) {
				continue
			}
			if keywordsBeyondDoc[level+"/"+name] == "" {
				t.Errorf("%s: tender takes %s, which Ansible does not document there", level, name)
			}
		}
	}
}
