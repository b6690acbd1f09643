package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// factCacheRoundTrip: the facts one controller stores another reads
// through its own connection, replaced whole, stamped when stored;
// forgotten on delete; a corrupt entry is removed with an error; an
// entry larger than the ledger keeps is refused.
func factCacheRoundTrip(t *testing.T, open Opener) {
	ctx := context.Background()
	a, b := open(t), open(t)
	ca, cb := store.NewFactCache(a, "p_", 0), store.NewFactCache(b, "p_", 0)
	before := time.Now().Add(-time.Second)
	if err := ca.Set("web1", map[string]any{"ansible_distribution": "Debian", "n": 3, "_ansible_facts_gathered": true}); err != nil {
		t.Fatal(err)
	}
	got, ok, err := cb.Get("web1")
	if err != nil || !ok || got["ansible_distribution"] != "Debian" || got["_ansible_facts_gathered"] != true {
		t.Fatalf("get: %v %v %v", got, ok, err)
	}
	data, stored, ok, err := b.Facts(ctx, "p_web1")
	if err != nil || !ok || stored.Before(before) || !strings.Contains(string(data), `"n":3`) {
		t.Fatalf("row: %s %v %v %v", data, stored, ok, err)
	}
	if _, ok, _ := store.NewFactCache(b, "", 0).Get("web1"); ok {
		t.Fatal("the prefix is part of the key")
	}
	if err := ca.Set("web1", map[string]any{"only": "this"}); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := store.NewFactCache(b, "p_", 0).Get("web1"); len(got) != 1 || got["only"] != "this" {
		t.Fatalf("replaced: %v", got)
	}
	if err := ca.Delete("web1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := store.NewFactCache(b, "p_", 0).Get("web1"); ok || err != nil {
		t.Fatalf("deleted: %v %v", ok, err)
	}
	if err := a.SetFacts(ctx, "p_bad", []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := cb.Get("bad"); ok || err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("corrupt: %v %v", ok, err)
	}
	if _, _, ok, _ := a.Facts(ctx, "p_bad"); ok {
		t.Fatal("a corrupt entry stays")
	}
	if err := a.SetFacts(ctx, "big", make([]byte, store.MaxFactsEntry+1)); err == nil {
		t.Fatal("an entry above MaxFactsEntry is stored")
	}
}

// wavesOfRollouts: deployments recorded with their wave are counted per
// rollout and wave by outcome, in the order of the rollouts asked for;
// a deployment outside a wave (a reconnect) and rollouts not asked for
// are left out; History shows each deployment's wave.
func wavesOfRollouts(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t)
	start := func() int64 {
		id, err := s.StartRollout(ctx, agents.RolloutRecord{Agent: "a", Version: "1", Owner: "o", Hosts: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	r1, r2, r3 := start(), start(), start()
	deploy := func(rollout int64, wave int, host, outcome string) {
		if ok, _, err := s.Lease(ctx, host, "a", "o", time.Minute, nil); err != nil || !ok {
			t.Fatalf("lease %s: %v %v", host, ok, err)
		}
		id, err := s.StartDeployment(ctx, agents.DeploymentRecord{Rollout: rollout, Host: host, Agent: "a", Owner: "o", Wave: wave})
		if err != nil {
			t.Fatal(err)
		}
		if outcome != agents.OutcomeRunning {
			if err := s.FinishDeployment(ctx, id, outcome, "", nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Release(ctx, host, "a", "o"); err != nil {
			t.Fatal(err)
		}
	}
	deploy(r1, 1, "h1", agents.OutcomeOK)
	deploy(r1, 2, "h2", agents.OutcomeOK)
	deploy(r1, 2, "h3", agents.OutcomeFailed)
	deploy(r2, 1, "h4", agents.OutcomeOK)
	deploy(r3, 1, "h5", agents.OutcomeRunning)
	deploy(0, 0, "h6", agents.OutcomeOK)
	ws, err := s.Waves(ctx, []int64{r3, r1})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 3 || ws[0].Rollout != r3 || ws[0].Outcomes[agents.OutcomeRunning] != 1 ||
		ws[1].Rollout != r1 || ws[1].N != 1 || ws[1].Hosts != 1 ||
		ws[2].N != 2 || ws[2].Hosts != 2 || ws[2].Outcomes[agents.OutcomeOK] != 1 || ws[2].Outcomes[agents.OutcomeFailed] != 1 {
		t.Fatalf("waves %+v", ws)
	}
	_, ds, err := s.History(ctx, "h3", 5)
	if err != nil || len(ds) != 1 || ds[0].Wave != 2 {
		t.Fatalf("history %+v %v", ds, err)
	}
	if ws, err := s.Waves(ctx, nil); err != nil || ws != nil {
		t.Fatalf("no rollouts: %v %v", ws, err)
	}
}
