package report

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/tender-sh/tender/provision"
)

// JSONSchema is the version of the JSON event stream (docs/JSON.md). It
// changes when a key is removed or changes meaning; new keys and new
// event kinds do not change it.
const JSONSchema = 1

// JSON returns an event handler writing each event as one line of JSON,
// in the schema docs/JSON.md documents: a run_start line first, naming
// the schema's version and tender's (version), then one line per event.
// It is safe for one run's events, which arrive one at a time.
func JSON(w io.Writer, version string) func(provision.Event) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var once sync.Once
	return func(e provision.Event) {
		once.Do(func() {
			_ = enc.Encode(map[string]any{"event": "run_start", "time": e.Time,
				"schema_version": JSONSchema, "tender_version": version})
		})
		_ = enc.Encode(jsonEvent(e))
	}
}

func jsonEvent(e provision.Event) map[string]any {
	m := map[string]any{"event": e.Kind.String(), "time": e.Time}
	set := func(k string, v any, ok bool) {
		if ok {
			m[k] = v
		}
	}
	set("playbook", e.Playbook, e.Playbook != "")
	set("play", e.Play, e.Play != "")
	set("hosts", e.Hosts, e.Hosts != nil)
	set("task", e.Task, e.Task != "")
	set("handler", true, e.Handler)
	set("path", e.Path, e.Path != "")
	set("module", e.Module, e.Module != "")
	set("host", e.Host, e.Host != "")
	set("delegate", e.Delegate, e.Delegate != "")
	set("status", e.Status, e.Status != "")
	set("ignored", true, e.Ignored)
	set("item", e.Item, e.IsItem)
	set("loop_done", true, e.LoopDone)
	set("result", e.Result, e.Result != nil)
	set("msg", e.Msg, e.Msg != "")
	set("diff", e.Diff, e.Diff != "")
	set("retries_left", e.RetriesLeft, e.Kind == provision.Retry)
	set("stream", liveStream(e), e.Kind == provision.Output)
	if e.Recap != nil {
		recap := make(map[string]any, len(e.Recap.Stats))
		for h, s := range e.Recap.Stats {
			recap[h] = map[string]int{"ok": s.OK, "changed": s.Changed, "unreachable": s.Unreachable,
				"failed": s.Failed, "skipped": s.Skipped, "rescued": s.Rescued, "ignored": s.Ignored}
		}
		m["recap"] = recap
		if e.Recap.Custom != nil {
			m["custom_stats"] = e.Recap.Custom
		}
	}
	return m
}

// liveStream names the stream an Output event's line came from.
func liveStream(e provision.Event) string {
	if e.Stderr {
		return "stderr"
	}
	return "stdout"
}
