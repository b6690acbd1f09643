package agents

import (
	"context"
	"errors"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
)

// ErrorCode says why a host's deploy failed, in words a program can
// switch on: the values are stable across releases, where HostResult's
// Error is text for people.
type ErrorCode string

// The error codes.
const (
	// CodeUnreachable: the host could not be reached (it does not answer,
	// or the connection broke) for a reason no other code names.
	CodeUnreachable ErrorCode = "unreachable"
	// CodeAuth: the host refused the login (no key or password it took).
	CodeAuth ErrorCode = "auth"
	// CodeHostKey: the host's key was refused (unknown under strict
	// checking, or changed since it was recorded).
	CodeHostKey ErrorCode = "host_key"
	// CodeTimeout: connecting to the host did not finish in time.
	CodeTimeout ErrorCode = "timeout"
	// CodeTaskFailed: a task of the bundle's playbook failed on the host
	// (or the playbook could not run there).
	CodeTaskFailed ErrorCode = "task_failed"
	// CodeCancelled: the rollout's context ended during the deploy.
	CodeCancelled ErrorCode = "cancelled"
	// CodeLeaseLost: another tender took the host's lease over.
	CodeLeaseLost ErrorCode = "lease_lost"
	// CodeLedger: the ledger could not be read or written.
	CodeLedger ErrorCode = "ledger"
	// CodeAgentDown: the agent was restarted (Deployer.Restart) but did
	// not answer (its port, its health command) in time.
	CodeAgentDown ErrorCode = "agent_down"
)

// unreachableCode names the cause of an unreachable host.
func unreachableCode(cause error) ErrorCode {
	switch {
	case errors.Is(cause, transport.ErrHostKey):
		return CodeHostKey
	case errors.Is(cause, transport.ErrAuth):
		return CodeAuth
	case errors.Is(cause, transport.ErrTimeout):
		return CodeTimeout
	}
	return CodeUnreachable
}

// eventCode is the code of a failing HostResult event.
func eventCode(e provision.Event) ErrorCode {
	if e.Status == provision.StatusUnreachable {
		return unreachableCode(e.Cause)
	}
	return CodeTaskFailed
}

// runCode is the code of a deploy whose run ended with err (ctx's
// end, the lease lost, or the playbook refused to run).
func runCode(ctx context.Context, err error) ErrorCode {
	switch {
	case errors.Is(err, ErrLeaseLost):
		return CodeLeaseLost
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return CodeCancelled
	}
	return CodeTaskFailed
}
