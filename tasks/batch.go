package tasks

import "context"

// Batcher is an optional interface of a Module whose loop items can be
// done together: a package manager installs a list of packages in one
// call as fast as one package, so a loop over package names
// (loop:/with_items: with name: "{{ item }}") costs one round trip
// instead of one per item, as old Ansible's "squash" did. The results
// stay per item.
//
// The engine calls Batch instead of Run item by item when a looped task
// has no until/retries and no async. It evaluates each item's when:
// first (skipped items are never given to Batch) and renders the other
// items' arguments; items holds those, in loop order. Every item gets the
// same Env (the task runs on one host with one connection).
//
// Batch returns one Result per item, in the order of items, each as Run
// would have returned it had the items run one after the other: Changed
// only for an item whose own work changed the host, Failed on the item
// that failed, and Data shaped as Run's. What cannot be split by item
// (the shared output of the one command, say) the module documents. The
// engine then applies changed_when and failed_when to each item's Result
// and reports and registers them as it does for Run's.
//
// ok=false, with nil results and no error, means these items cannot be
// done together (they differ in more than the names, or one of them
// needs something only Run does) and nothing was done on the host: the
// engine then runs each item with Run. Batch decides that before it
// touches the host. An error means the batch could not run at all (as
// Run's error): the engine fails every item with it. Batch must be safe
// for concurrent use on different hosts.
type Batcher interface {
	Batch(ctx context.Context, env *Env, items []Args) (results []Result, ok bool, err error)
}
