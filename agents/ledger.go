package agents

import (
	"context"
	"errors"
	"time"
)

// Store is the ledger a Deployer needs: what was deployed where, who is
// deploying what right now, and the record of deployments and rollouts.
// agents/store implements it with SQLite (one controller) and with
// PostgreSQL (several controllers sharing a fleet); its storetest package
// is the conformance suite both pass. Tests may use a fake.
//
// Implementations must be safe for concurrent use, and for use by several
// processes at once where they share state (a database file, a database
// server). A store shared across machines judges a lease's expiry by one
// clock (the database's), never by each controller's.
type Store interface {
	// Deployed returns the files recorded for (host, agent) by its last
	// successful deploy; ok is false when the agent was never deployed on
	// the host (or the host was forgotten).
	Deployed(ctx context.Context, host, agent string) (files []FileRecord, ok bool, err error)

	// Lease takes the exclusive right to deploy agent on host until ttl
	// passes, for owner. It succeeds when no lease is held, the held one
	// expired, owner already holds it, or takeover(holder) says the
	// holder is gone (a crashed process). On failure it returns the
	// holder. The check and the write happen in one transaction, so two
	// processes never both get the lease.
	Lease(ctx context.Context, host, agent, owner string, ttl time.Duration, takeover func(holder string) bool) (ok bool, holder string, err error)
	// Release gives a lease up; releasing a lease owner does not hold is
	// not an error and changes nothing.
	Release(ctx context.Context, host, agent, owner string) error

	// StartRollout records a rollout and returns its id. Rollouts of the
	// same agent left running by an owner that takeover says is gone are
	// marked interrupted first, and running rollouts (of any agent) whose
	// lease expired are marked abandoned, with their unfinished
	// deployments. The new rollout's lease lasts r.TTL (0: for ever).
	StartRollout(ctx context.Context, r RolloutRecord, takeover func(owner string) bool) (int64, error)
	// RenewRollout extends a running rollout's lease to ttl from now (by
	// the store's clock). A rollout that is no longer running is left as
	// it is.
	RenewRollout(ctx context.Context, id int64, ttl time.Duration) error
	// FinishRollout records how a rollout ended.
	FinishRollout(ctx context.Context, id int64, outcome string) error

	// StartDeployment records that a host's deploy begins (its reason
	// included) and returns the deployment's id. Earlier deployments of
	// (host, agent) that never finished are marked interrupted.
	StartDeployment(ctx context.Context, d DeploymentRecord) (int64, error)
	// FinishDeployment records a deployment's outcome and error text. When
	// files is not nil (a deploy that fully succeeded) the ledger rows of
	// (host, agent) are replaced by files in the same transaction, but only
	// while the deployment's owner still holds the (host, agent) lease:
	// otherwise nothing is written and the error wraps ErrLeaseLost. A
	// failed deploy leaves the ledger as it was.
	FinishDeployment(ctx context.Context, id int64, outcome, errText string, files []FileRecord) error

	// Forget drops everything recorded about a host.
	Forget(ctx context.Context, host string) error
}

// BulkStore is a Store that can read the ledger rows of every host of an
// agent at once: a Deployer plans with one query instead of one per host
// when its Store is one (both of agents/store's are).
type BulkStore interface {
	Store
	// DeployedAll returns, for every host where agent was deployed, what
	// Deployed would return for it.
	DeployedAll(ctx context.Context, agent string) (map[string][]FileRecord, error)
}

// FileRecord is one deployed file of an agent on a host.
type FileRecord struct {
	Path       string
	MD5        string
	Size       int64
	DeployedAt time.Time
	Version    string // the bundle version that deployed it
}

// RolloutRecord describes a rollout when it starts.
type RolloutRecord struct {
	Agent, Version string
	Owner          string // the deploying process (see Owner)
	Hosts          int
	Summary        string // the plan summary line
	// TTL is how long the rollout counts as running without a renewal
	// (RenewRollout): a rollout whose controller died is shown abandoned
	// once it passes. 0: until it is finished.
	TTL time.Duration
}

// DeploymentRecord describes a host's deploy when it starts.
type DeploymentRecord struct {
	Rollout     int64
	Host, Agent string
	Reason      string
	Owner       string // the deploying process, which holds the lease
	// Wave is the rollout's wave the deploy runs in, from 1 (the
	// canary, when there is one); 0 when it is in none (a reconnect).
	Wave int
}

// ErrLeaseLost is what FinishDeployment's error wraps when the deploying
// process no longer holds the host's lease.
var ErrLeaseLost = errors.New("the host's lease was lost to another tender")

// Outcomes of a deployment and of a rollout, as recorded.
const (
	OutcomeOK          = "ok"
	OutcomeFailed      = "failed"
	OutcomeInterrupted = "interrupted"
	OutcomeRunning     = "running"
	OutcomeStopped     = "stopped" // max-fail stopped the rollout
	// OutcomeAbandoned is a rollout whose lease expired while it was
	// running (its controller died or lost the ledger), and a deployment
	// of it left unfinished.
	OutcomeAbandoned = "abandoned"
)
