package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/provision"
)

// FactStore is where a FactCache keeps its entries: a Store or a PG.
type FactStore interface {
	// Facts returns the entry under key and when it was stored; ok is
	// false when there is none.
	Facts(ctx context.Context, key string) (data []byte, stored time.Time, ok bool, err error)
	// SetFacts replaces the entry under key.
	SetFacts(ctx context.Context, key string, data []byte) error
	// DeleteFacts forgets the entry under key.
	DeleteFacts(ctx context.Context, key string) error
}

// FactCache is a provision.FactCache in the ledger (fact_caching =
// ledger): each host's facts are one entry, under Prefix and the host's
// name, as JSON. In a shared PostgreSQL ledger, every controller reads
// the facts any of them gathered. An entry older than the timeout (by
// the ledger's clock when it was stored; 0: never) is not read. Make one
// with NewFactCache.
type FactCache struct {
	st      FactStore
	prefix  string
	timeout time.Duration
	// opTimeout bounds each read and write of the ledger.
	opTimeout time.Duration
	mu        sync.Mutex
	mem       map[string]map[string]any // entries read or written this run
}

var _ provision.FactCache = (*FactCache)(nil)

// factOpTimeout is how long one fact cache read or write may take,
// waiting out a PostgreSQL outage included.
const factOpTimeout = 2 * time.Minute

// NewFactCache returns the fact cache in st, its keys prefixed with
// prefix, its entries read while younger than timeout (0: always).
func NewFactCache(st FactStore, prefix string, timeout time.Duration) *FactCache {
	return &FactCache{st: st, prefix: prefix, timeout: timeout, opTimeout: factOpTimeout, mem: map[string]map[string]any{}}
}

// Get returns host's facts: from memory once read or written in this
// run, else from the ledger when younger than the timeout. An entry that
// is not a JSON object is removed, and the error says so.
func (c *FactCache) Get(host string) (map[string]any, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.mem[host]; ok {
		return v, true, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.opTimeout)
	defer cancel()
	data, stored, ok, err := c.st.Facts(ctx, c.prefix+host)
	if err != nil {
		return nil, false, fmt.Errorf("fact cache: reading the facts of %s: %w", host, err)
	}
	if !ok || c.timeout > 0 && time.Since(stored) > c.timeout {
		return nil, false, nil
	}
	v, err := pydict.LoadJSON(bytes.TrimSpace(data))
	m, isMap := v.(map[string]any)
	if err != nil || !isMap {
		if derr := c.st.DeleteFacts(ctx, c.prefix+host); derr != nil {
			return nil, false, fmt.Errorf("fact cache: the facts of %s were corrupt, and could not be removed: %w", host, derr)
		}
		return nil, false, fmt.Errorf("fact cache: the facts of %s were corrupt, or did not otherwise contain valid data. They have been removed, so you can re-run your command now.", host)
	}
	c.mem[host] = m
	return m, true, nil
}

// Set replaces host's facts.
func (c *FactCache) Set(host string, facts map[string]any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mem[host] = facts
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(facts); err != nil {
		return fmt.Errorf("fact cache: cannot write the facts of %s: %v", host, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.opTimeout)
	defer cancel()
	if err := c.st.SetFacts(ctx, c.prefix+host, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
		return fmt.Errorf("fact cache: cannot write the facts of %s: %w", host, err)
	}
	return nil
}

// Delete forgets host's facts.
func (c *FactCache) Delete(host string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.mem, host)
	ctx, cancel := context.WithTimeout(context.Background(), c.opTimeout)
	defer cancel()
	return c.st.DeleteFacts(ctx, c.prefix+host)
}
