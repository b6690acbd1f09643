package main

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// runRow is a run as the pages show it.
type runRow struct {
	ID                                 int64
	Started, Took, Kind, Status, Hosts string
	What, Command, Login, Controller   string
}

func newRunRow(r store.Run) runRow {
	return runRow{ID: r.ID, Started: r.Started.Local().Format("2006-01-02 15:04:05"), Took: runDuration(r), Kind: r.Kind,
		Status: r.Status, Hosts: recapSummary(r.Recap), What: r.Playbooks, Command: r.Command, Login: r.Login, Controller: r.Controller}
}

// page is what every page's layout reads: its title, and whether it
// reloads itself (something on it is still running).
type page struct {
	Title string
	Live  bool
}

func (w *web) runsPage(rw http.ResponseWriter, r *http.Request) {
	runs, err := w.st.Runs(r.Context(), 100)
	if err != nil {
		w.fail(rw, err)
		return
	}
	v := struct {
		page
		Runs []runRow
	}{page: page{Title: "Runs"}}
	for _, x := range runs {
		v.Runs = append(v.Runs, newRunRow(x))
		v.Live = v.Live || x.Status == "running"
	}
	w.render(rw, "runs.html", v)
}

// recapRow is one host's line of a run's recap.
type recapRow struct {
	Host                                                        string
	OK, Changed, Unreachable, Failed, Skipped, Rescued, Ignored int
}

func (w *web) runPage(rw http.ResponseWriter, r *http.Request) {
	run, rs, ok := w.run(rw, r)
	if !ok {
		return
	}
	v := struct {
		page
		Run     runRow
		Recap   []recapRow
		Results []store.RunResult
	}{page: page{Title: "Run " + strconv.FormatInt(run.ID, 10), Live: run.Status == "running"}, Run: newRunRow(run), Results: rs}
	var m map[string]map[string]int
	if json.Unmarshal([]byte(run.Recap), &m) == nil {
		for _, h := range slices.Sorted(maps.Keys(m)) {
			s := m[h]
			v.Recap = append(v.Recap, recapRow{Host: h, OK: s["ok"], Changed: s["changed"], Unreachable: s["unreachable"],
				Failed: s["failed"], Skipped: s["skipped"], Rescued: s["rescued"], Ignored: s["ignored"]})
		}
	}
	w.render(rw, "run.html", v)
}

// agentHost is one host of an agent as the fleet page shows it.
type agentHost struct {
	Host, Version, Deployed, Outcome, Error string
	Files                                   []agents.FileRecord
}

func (w *web) agentsPage(rw http.ResponseWriter, r *http.Request) {
	rollouts, deps, err := w.st.History(r.Context(), "", 200)
	if err != nil {
		w.fail(rw, err)
		return
	}
	type agentView struct {
		Name  string
		Hosts []agentHost
	}
	type waveView struct {
		N, Hosts       int
		Outcomes       string
		Failed, Active bool
	}
	type rolloutView struct {
		store.Rollout
		Waves []waveView
	}
	waves, err := rolloutWaves(r.Context(), w.st, rollouts)
	if err != nil {
		w.fail(rw, err)
		return
	}
	v := struct {
		page
		Agents   []agentView
		Rollouts []rolloutView
	}{page: page{Title: "Agents"}}
	for _, x := range rollouts {
		rv := rolloutView{Rollout: x}
		for _, wv := range waves[x.ID] {
			rv.Waves = append(rv.Waves, waveView{N: wv.N, Hosts: wv.Hosts, Outcomes: waveOutcomes(wv),
				Failed: wv.Outcomes[agents.OutcomeFailed] > 0, Active: wv.Outcomes[agents.OutcomeRunning] > 0})
		}
		v.Rollouts = append(v.Rollouts, rv)
	}
	var names []string
	for _, x := range rollouts {
		v.Live = v.Live || x.Outcome == agents.OutcomeRunning
		if !slices.Contains(names, x.Agent) {
			names = append(names, x.Agent)
		}
	}
	for _, d := range deps {
		if !slices.Contains(names, d.Agent) {
			names = append(names, d.Agent)
		}
	}
	sort.Strings(names)
	bulk, _ := w.st.(agents.BulkStore)
	for _, name := range names {
		av := agentView{Name: name}
		files := map[string][]agents.FileRecord{}
		if bulk != nil {
			if files, err = bulk.DeployedAll(r.Context(), name); err != nil {
				w.fail(rw, err)
				return
			}
		}
		last := map[string]store.Deployment{} // newest first: the first seen
		for _, d := range deps {
			if _, seen := last[d.Host]; !seen && d.Agent == name {
				last[d.Host] = d
			}
		}
		hosts := slices.Sorted(maps.Keys(files))
		for h := range last {
			if _, ok := files[h]; !ok {
				hosts = append(hosts, h)
			}
		}
		sort.Strings(hosts)
		for _, h := range hosts {
			ah := agentHost{Host: h, Files: files[h]}
			if fs := files[h]; len(fs) > 0 {
				ah.Version, ah.Deployed = fs[0].Version, fs[0].DeployedAt.Local().Format("2006-01-02 15:04:05")
			}
			if d, ok := last[h]; ok {
				ah.Outcome, ah.Error = d.Outcome, d.Error
			}
			av.Hosts = append(av.Hosts, ah)
		}
		v.Agents = append(v.Agents, av)
	}
	w.render(rw, "agents.html", v)
}

func (w *web) runsJSON(rw http.ResponseWriter, r *http.Request) {
	runs, err := w.st.Runs(r.Context(), 100)
	if err != nil {
		w.fail(rw, err)
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	writeJSON(rw, runs)
}

// run reads the run the path's {id} names and its results; ok is false
// when it answered the request with the error.
func (w *web) run(rw http.ResponseWriter, r *http.Request) (store.Run, []store.RunResult, bool) {
	id, err := runID(r)
	if err == nil {
		var run store.Run
		var rs []store.RunResult
		if run, rs, err = w.st.RunResults(r.Context(), id); err == nil {
			return run, rs, true
		}
	}
	w.fail(rw, err)
	return store.Run{}, nil, false
}

func (w *web) runJSON(rw http.ResponseWriter, r *http.Request) {
	run, rs, ok := w.run(rw, r)
	if !ok {
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	writeJSON(rw, struct {
		Run     store.Run
		Results []store.RunResult
	}{run, rs})
}
