package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// everyEvent is one event of each kind, with every field set.
func everyEvent() []provision.Event {
	now := time.Now()
	full := provision.Event{Time: now, Playbook: "site.yml", Play: "p", Hosts: []string{"a", "b"}, Task: "t", Handler: true,
		Path: "site.yml:3", Module: "copy", Host: "a", Delegate: "b", Status: provision.StatusFailed, Ignored: true,
		Item: "x", IsItem: true, LoopDone: true, Result: map[string]any{"rc": 1}, Msg: "m", Diff: "d", RetriesLeft: 2,
		Recap: &provision.Recap{Hosts: []string{"a"}, Stats: map[string]*provision.Stats{"a": {OK: 1, Changed: 2, Unreachable: 3,
			Failed: 4, Skipped: 5, Rescued: 6, Ignored: 7}}, Custom: map[string]map[string]any{"_run": {"k": 1}}}}
	var out []provision.Event
	for k := provision.PlayStart; k <= provision.PlaybookEnd; k++ {
		e := full
		e.Kind = k
		out = append(out, e)
	}
	return out
}

// TestJSONSchemaDocumented: every event kind and every key the JSON
// writer emits is documented in docs/JSON.md, and every key is
// snake_case, the stats of the recap included.
func TestJSONSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/JSON.md")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	ev := JSON(&b, "1.2.3")
	events := everyEvent()
	for _, e := range events {
		ev(e)
	}
	sc := bufio.NewScanner(&b)
	n := 0
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		kind, _ := m["event"].(string)
		if n == 0 && (kind != "run_start" || m["schema_version"] != float64(JSONSchema) || m["tender_version"] != "1.2.3") {
			t.Errorf("first line %s, want run_start with the versions", sc.Text())
		}
		n++
		if kind == "" || !strings.Contains(string(doc), "### `"+kind+"`") {
			t.Errorf("event kind %q is not documented (### `%s`)", kind, kind)
		}
		for k := range m {
			if !snakeCase.MatchString(k) {
				t.Errorf("%s: key %q is not snake_case", kind, k)
			}
			if !strings.Contains(string(doc), "`"+k+"`") {
				t.Errorf("%s: key %q is not documented", kind, k)
			}
		}
		if recap, ok := m["recap"].(map[string]any); ok {
			for _, s := range recap {
				for k := range s.(map[string]any) {
					if !snakeCase.MatchString(k) || !strings.Contains(string(doc), "`"+k+"`") {
						t.Errorf("recap key %q: not snake_case or not documented", k)
					}
				}
			}
		}
	}
	if n != len(events)+1 {
		t.Errorf("%d lines for %d events and run_start", n, len(events))
	}
	for _, e := range events {
		if strings.HasPrefix(e.Kind.String(), "EventKind(") {
			t.Errorf("event kind %d has no name", e.Kind)
		}
	}
}
