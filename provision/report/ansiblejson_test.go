package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
)

// TestAnsibleJSONDocument: the document is written once, at the run's
// end; a serial batch of the same play adds no play; item results are
// left out; paths become Ansible's path:line; what is not ASCII is
// escaped as Python's json.dumps does; Indent 0 writes one line.
func TestAnsibleJSONDocument(t *testing.T) {
	var b bytes.Buffer
	ev := AnsibleJSON(&b, AnsibleJSONOptions{})
	ev(provision.Event{Kind: provision.PlayStart, Play: "p", Path: "/d/pb.yml:1:3"})
	ev(provision.Event{Kind: provision.TaskStart, Task: "t", Path: "/d/pb.yml:4:7"})
	ev(provision.Event{Kind: provision.HostResult, Host: "a", Module: "debug", Traits: tasks.Traits{Shows: true}, Status: provision.StatusOK, IsItem: true,
		Result: map[string]any{"item": 1}})
	ev(provision.Event{Kind: provision.HostResult, Host: "a", Module: "debug", Traits: tasks.Traits{Shows: true}, Status: provision.StatusOK,
		Result: map[string]any{"msg": "héllo", "failed": false}})
	ev(provision.Event{Kind: provision.PlayStart, Play: "p", Path: "/d/pb.yml:1:3"})
	if b.Len() != 0 {
		t.Fatalf("written before the end: %s", b.String())
	}
	ev(provision.Event{Kind: provision.RunEnd, Recap: &provision.Recap{Stats: map[string]*provision.Stats{"a": {OK: 1}}}})
	out := b.String()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, `"h\u00e9llo"`) {
		t.Fatalf("want one line with the é escaped, got %s", out)
	}
	var doc struct {
		Plays []struct {
			Play  map[string]any
			Tasks []struct {
				Task  map[string]any
				Hosts map[string]map[string]any
			}
		}
		Stats map[string]map[string]int
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Plays) != 1 || len(doc.Plays[0].Tasks) != 1 {
		t.Fatalf("plays %+v", doc.Plays)
	}
	if p := doc.Plays[0].Play["path"]; p != "/d/pb.yml:1" {
		t.Errorf("play path %v", p)
	}
	task := doc.Plays[0].Tasks[0]
	if task.Task["path"] != "/d/pb.yml:4" || task.Task["name"] != "t" {
		t.Errorf("task %v", task.Task)
	}
	r := task.Hosts["a"]
	if r["action"] != "debug" || r["msg"] != "héllo" || r["failed"] != nil || r["item"] != nil {
		t.Errorf("host result %v", r)
	}
	if doc.Stats["a"]["ok"] != 1 {
		t.Errorf("stats %v", doc.Stats)
	}
}

// TestAnsibleJSONIncludes: an include's result is its host result, as
// Ansible's callback records it; the "included:" lines add nothing.
func TestAnsibleJSONIncludes(t *testing.T) {
	var b bytes.Buffer
	ev := AnsibleJSON(&b, AnsibleJSONOptions{})
	ev(provision.Event{Kind: provision.PlayStart, Play: "p", Path: "/d/pb.yml:1:3"})
	ev(provision.Event{Kind: provision.TaskStart, Task: "include_tasks", Path: "/d/pb.yml:4:7"})
	ev(provision.Event{Kind: provision.HostResult, Host: "b", Module: "include_tasks", Include: true, Status: provision.StatusOK,
		Result: map[string]any{"include": "x.yml", "include_args": map[string]any{}, "changed": false}})
	ev(provision.Event{Kind: provision.Included, Hosts: []string{"a", "b"}, Path: "/d/x.yml"})
	ev(provision.Event{Kind: provision.RunEnd, Recap: &provision.Recap{Stats: map[string]*provision.Stats{"b": {OK: 1}}}})
	var doc struct {
		Plays []struct {
			Tasks []struct {
				Hosts map[string]map[string]any
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	hosts := doc.Plays[0].Tasks[0].Hosts
	if r := hosts["b"]; r["include"] != "x.yml" || r["action"] != "include_tasks" || r["changed"] != false || len(hosts) != 1 {
		t.Errorf("include: %v", hosts)
	}
}
