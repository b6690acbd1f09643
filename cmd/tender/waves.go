package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// rolloutWaves reads the waves of rollouts from the ledger, by rollout.
func rolloutWaves(ctx context.Context, st store.Ledger, rollouts []store.Rollout) (map[int64][]store.Wave, error) {
	ids := make([]int64, len(rollouts))
	for i, r := range rollouts {
		ids[i] = r.ID
	}
	ws, err := st.Waves(ctx, ids)
	if err != nil {
		return nil, err
	}
	by := map[int64][]store.Wave{}
	for _, w := range ws {
		by[w.Rollout] = append(by[w.Rollout], w)
	}
	return by, nil
}

// waveOrder is the order a wave's outcomes are told in: the ones that
// need a look first.
var waveOrder = []string{agents.OutcomeFailed, agents.OutcomeRunning, agents.OutcomeInterrupted, agents.OutcomeAbandoned, agents.OutcomeOK}

// waveText tells what a wave did: "wave 2: 3 hosts: 1 failed, 2 ok".
func waveText(w store.Wave) string {
	hosts := "hosts"
	if w.Hosts == 1 {
		hosts = "host"
	}
	return fmt.Sprintf("wave %d: %d %s: %s", w.N, w.Hosts, hosts, waveOutcomes(w))
}

// waveOutcomes counts a wave's hosts by outcome: "1 failed, 2 ok".
func waveOutcomes(w store.Wave) string {
	names := make([]string, 0, len(w.Outcomes))
	for o := range w.Outcomes {
		names = append(names, o)
	}
	slices.SortFunc(names, func(a, b string) int {
		ia, ib := slices.Index(waveOrder, a), slices.Index(waveOrder, b)
		if ia < 0 {
			ia = len(waveOrder)
		}
		if ib < 0 {
			ib = len(waveOrder)
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(names))
	for i, o := range names {
		parts[i] = fmt.Sprintf("%d %s", w.Outcomes[o], o)
	}
	return strings.Join(parts, ", ")
}
