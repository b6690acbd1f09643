package agents_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
)

// BenchmarkPlanFromLedger10000 plans a rollout of 10,000 hosts, all in the
// SQLite ledger at the bundle's version, from the ledger alone (--force:
// no host is probed): the part of a plan that the ledger costs.
//
//	go test -run NONE -bench PlanFromLedger -benchtime 5x ./agents/
func BenchmarkPlanFromLedger10000(b *testing.B) {
	const hosts = 10000
	ctx := context.Background()
	dir := b.TempDir()
	for name, data := range map[string]string{
		"agent.bin":  "v1",
		"deploy.yml": "- hosts: all\n  gather_facts: false\n  tasks:\n    - ping:\n",
		"agent.yaml": "name: demo\nversion: \"1\"\nhealth: \"true\"\nfiles:\n  - {src: agent.bin, dest: /opt/agent, mode: \"0755\"}\nplaybook: deploy.yml\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	bundle, err := agents.LoadBundle(dir, agents.LoadOptions{Modules: builtin.Registry()})
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "ledger.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	inv := inventory.New()
	files := []agents.FileRecord{{Path: bundle.Files[0].Dest, MD5: bundle.Files[0].MD5, Size: bundle.Files[0].Size, Version: "1"}}
	for i := range hosts {
		name := fmt.Sprintf("host%05d", i)
		if _, err := inv.AddHost(name); err != nil {
			b.Fatal(err)
		}
		id, err := st.StartDeployment(ctx, agents.DeploymentRecord{Host: name, Agent: "demo", Reason: "new"})
		if err == nil {
			err = st.FinishDeployment(ctx, id, agents.OutcomeOK, "", files)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	// hostByHost hides DeployedAll: the plan reads the ledger one host
	// at a time, as it did before BulkStore.
	type hostByHost struct{ agents.Store }
	for _, c := range []struct {
		name string
		st   agents.Store
	}{{"one query", st}, {"host by host", hostByHost{st}}} {
		b.Run(c.name, func(b *testing.B) {
			d, err := agents.New(c.st, bundle, inv, agents.Options{Modules: builtin.Registry(), Connections: transport.NewConnections().Add("ssh", &counting{}), Force: true})
			if err != nil {
				b.Fatal(err)
			}
			for range b.N {
				decs, err := d.Plan(ctx)
				if err != nil || len(decs) != hosts || decs[0].Action != agents.ActionForce {
					b.Fatalf("plan: %v, %d decisions", err, len(decs))
				}
			}
		})
	}
}
