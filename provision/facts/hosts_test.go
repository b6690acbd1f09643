package facts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// envDiffers are environment variables that differ between two SSH
// sessions by nature: ansible asks for a terminal (SSH_TTY, TERM), each
// connection has its own client port, and $_ names the last command.
var envDiffers = map[string]bool{"SSH_TTY": true, "TERM": true, "SSH_CLIENT": true, "SSH_CONNECTION": true, "_": true}

// TestRealHostsAgainstAnsible compares tender's facts with ansible's setup
// module on the same real host (recorded by testdata/record-host.sh from a
// container of the e2e fleet): every fact tender produces must equal
// ansible's, after a JSON round trip of both.
func TestRealHostsAgainstAnsible(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/hosts/*")
	if len(dirs) == 0 {
		t.Fatal("no recorded hosts under testdata/hosts")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "script.out"))
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, "setup.json"))
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			ours, err := Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			if env, ok := ours["env"].(map[string]any); ok {
				wenv, _ := want["ansible_env"].(map[string]any)
				for k := range envDiffers {
					delete(env, k)
					delete(wenv, k)
				}
			}
			for k, v := range ours {
				got := roundTrip(t, v)
				if w := want["ansible_"+k]; !reflect.DeepEqual(got, w) {
					t.Errorf("ansible_%s: tender %v, ansible %v", k, got, w)
				}
			}
		})
	}
}

func roundTrip(t *testing.T, v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
