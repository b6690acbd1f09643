package agents_test

import (
	"context"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
)

// TestCanaryAndFailedBatchStop: a canary wave goes first on its own and
// its failure stops the rollout; with StopOnFailedBatch a later wave
// with a failure is the last; without either, every wave runs.
func TestCanaryAndFailedBatchStop(t *testing.T) {
	ctx := context.Background()
	var waves []int
	f := newFixture(t, "h1", "h2", "h3", "h4", "h5")
	rep, err := f.deployer(t, func(o *agents.Options) {
		o.ExtraVars = map[string]any{"fail_hosts": []any{"h1"}}
		o.Canary, o.Batch = 1, agents.Count{N: 2}
		o.Events = func(e agents.Event) {
			if e.Kind == agents.WaveStarted {
				waves = append(waves, e.Hosts)
			}
		}
	}).Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(rep); got != "h1=new/failed h2=new/not attempted h3=new/not attempted h4=new/not attempted h5=new/not attempted" || !rep.Stopped {
		t.Fatalf("a failed canary must stop the rollout: %s stopped=%v", got, rep.Stopped)
	}
	if len(waves) != 1 || waves[0] != 1 {
		t.Errorf("waves %v, want [1]", waves)
	}

	f = newFixture(t, "h1", "h2", "h3", "h4", "h5")
	waves = nil
	rep, _ = f.deployer(t, func(o *agents.Options) {
		o.ExtraVars = map[string]any{"fail_hosts": []any{"h3"}}
		o.Canary, o.Batch, o.StopOnFailedBatch = 1, agents.Count{N: 2}, true
		o.Events = func(e agents.Event) {
			if e.Kind == agents.WaveStarted {
				waves = append(waves, e.Hosts)
			}
		}
	}).Deploy(ctx)
	if got := actions(rep); got != "h1=new/deployed h2=new/deployed h3=new/failed h4=new/not attempted h5=new/not attempted" || !rep.Stopped {
		t.Fatalf("the failed second wave must be the last: %s stopped=%v", got, rep.Stopped)
	}
	if len(waves) != 2 || waves[0] != 1 || waves[1] != 2 {
		t.Errorf("waves %v, want [1 2]", waves)
	}

	f = newFixture(t, "h1", "h2", "h3", "h4", "h5")
	rep, _ = f.deployer(t, func(o *agents.Options) {
		o.ExtraVars = map[string]any{"fail_hosts": []any{"h3"}}
		o.Batch = agents.Count{N: 2}
	}).Deploy(ctx)
	if got := actions(rep); got != "h1=new/deployed h2=new/deployed h3=new/failed h4=new/deployed h5=new/deployed" || rep.Stopped {
		t.Fatalf("without a stop, every wave runs: %s stopped=%v", got, rep.Stopped)
	}
}

// TestPauseBetweenWaves: Pause separates waves (announced by a Pausing
// event), and not the first.
func TestPauseBetweenWaves(t *testing.T) {
	f := newFixture(t, "h1", "h2", "h3")
	var kinds []agents.EventKind
	var starts []time.Time
	rep, err := f.deployer(t, func(o *agents.Options) {
		o.Batch, o.Pause = agents.Count{N: 1}, 150*time.Millisecond
		o.Events = func(e agents.Event) {
			switch e.Kind {
			case agents.Pausing, agents.WaveStarted:
				kinds = append(kinds, e.Kind)
				if e.Kind == agents.WaveStarted {
					starts = append(starts, time.Now())
				}
			}
		}
	}).Deploy(context.Background())
	if err != nil || rep.Count(agents.HostDeployed) != 3 {
		t.Fatalf("%s %v", actions(rep), err)
	}
	want := []agents.EventKind{agents.WaveStarted, agents.Pausing, agents.WaveStarted, agents.Pausing, agents.WaveStarted}
	if len(kinds) != len(want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("events %v, want %v", kinds, want)
		}
	}
	for i := 1; i < len(starts); i++ {
		if gap := starts[i].Sub(starts[i-1]); gap < 150*time.Millisecond {
			t.Errorf("wave %d started %s after the one before, want at least the pause", i+1, gap)
		}
	}
}
