package provision

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/provision/facts"
)

// FactCache keeps hosts' facts from one run to the next, as Ansible's
// fact_caching does: what setup and gather_facts gathered, the facts
// other modules returned and set_fact's cacheable ones, under the names
// setup returns them (ansible_distribution, gather_subset, ...), with
// _ansible_facts_gathered once the play gathered them. A run reads each
// host's entry when the host first takes part, and gathering = smart
// then skips a host whose facts were gathered; it writes the entry each
// time the host's facts change. Implementations are safe for concurrent
// use.
type FactCache interface {
	// Get returns host's facts; ok is false when there are none (or
	// they expired). An error fails the host's first task.
	Get(host string) (facts map[string]any, ok bool, err error)
	// Set replaces host's facts.
	Set(host string, facts map[string]any) error
	// Delete forgets host's facts (--flush-cache, meta: clear_facts).
	Delete(host string) error
}

// JSONFileCache is Ansible's jsonfile fact cache: one JSON file per
// host in Dir, named Prefix and the host's name, written whole (a
// temporary file renamed over it, mode 0600) and read back by Ansible's
// as by tender. An entry older than Timeout (by its file's modification
// time; 0: never) is not read. Make one with NewJSONFileCache.
type JSONFileCache struct {
	dir, prefix string
	timeout     time.Duration
	mu          sync.Mutex
	mem         map[string]map[string]any // entries read or written this run
}

// NewJSONFileCache returns the cache in dir (made when missing), as
// Ansible's fact_caching_connection, fact_caching_prefix and
// fact_caching_timeout give them. An empty dir, or one that cannot be
// made or used, is an error in Ansible's words.
func NewJSONFileCache(dir, prefix string, timeout time.Duration) (*JSONFileCache, error) {
	if dir == "" {
		return nil, errors.New("error, 'jsonfile' cache plugin requires the 'fact_caching_connection' config option to be set (to a writeable directory path)")
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("error in 'jsonfile' cache plugin while trying to create cache dir %s : %v", dir, err)
		}
	} else if err := usableDir(dir); err != nil {
		return nil, fmt.Errorf("error in 'jsonfile' cache, configured path (%s) does not have necessary permissions (rwx), disabling plugin", dir)
	}
	return &JSONFileCache{dir: dir, prefix: prefix, timeout: timeout, mem: map[string]map[string]any{}}, nil
}

// usableDir reports whether dir is a directory this process may list,
// create files in and enter.
func usableDir(dir string) error {
	f, err := os.CreateTemp(dir, ".tender-probe-")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	_, err = os.ReadDir(dir)
	return err
}

// file is host's entry's path; "" for a name that is not one file name
// (a host named with a slash, or "." or ".."), which is never cached.
func (c *JSONFileCache) file(host string) string {
	name := c.prefix + host
	if host == "" || strings.ContainsAny(name, "/\x00") || name == "." || name == ".." {
		return ""
	}
	return filepath.Join(c.dir, name)
}

// Get reads host's entry: from memory once read or written in this run
// (so an entry that expires during a run stays), else from its file
// when it is younger than the timeout. A file that is not JSON is
// removed, and the error says so, as Ansible's does.
func (c *JSONFileCache) Get(host string) (map[string]any, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.mem[host]; ok {
		return v, true, nil
	}
	path := c.file(host)
	if path == "" {
		return nil, false, nil
	}
	fi, err := os.Stat(path)
	if err != nil || (c.timeout > 0 && time.Since(fi.ModTime()) > c.timeout) {
		return nil, false, nil
	}
	const maxEntry = 256 << 20
	if fi.Size() > maxEntry {
		return nil, false, fmt.Errorf("the cache file %s is larger than tender reads (%d MiB)", path, maxEntry>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, nil
	}
	v, err := pydict.LoadJSON(bytes.TrimSpace(data))
	m, isMap := v.(map[string]any)
	if err != nil || !isMap {
		os.Remove(path)
		return nil, false, fmt.Errorf("The cache file %s was corrupt, or did not otherwise contain valid data. It has been removed, so you can re-run your command now.", path)
	}
	c.mem[host] = m
	return m, true, nil
}

// Set writes host's entry: JSON, keys sorted, indented by four, as
// Ansible writes it.
func (c *JSONFileCache) Set(host string, facts map[string]any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mem[host] = facts
	path := c.file(host)
	if path == "" {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	if err := enc.Encode(facts); err != nil {
		return fmt.Errorf("error in 'jsonfile' cache plugin while trying to write facts of %s: %v", host, err)
	}
	tmp, err := os.CreateTemp(c.dir, ".tender-"+strings.TrimPrefix(filepath.Base(path), ".")+"-")
	if err != nil {
		return fmt.Errorf("error in 'jsonfile' cache plugin while trying to write to '%s' : %v", c.dir, err)
	}
	_, werr := tmp.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("error in 'jsonfile' cache plugin while trying to write to '%s' : %v", path, werr)
	}
	return nil
}

// Delete removes host's entry.
func (c *JSONFileCache) Delete(host string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.mem, host)
	if path := c.file(host); path != "" {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// loadCachedFacts gives h the facts the run's fact cache holds for it,
// as a run that gathered them left them: setup's facts in facts (their
// ansible_ prefix dropped), the others in cachedFacts; gathered when the
// play had gathered them. Cached facts came from the host: they are
// data, never templates.
func (rn *run) loadCachedFacts(h *hostRun) error {
	if rn.r.FactCache == nil {
		return nil
	}
	entry, ok, err := rn.r.FactCache.Get(h.name)
	if err != nil || !ok {
		return err
	}
	entry = unsafeDeep(entry).(map[string]any)
	h.cachedFacts = map[string]any{}
	for k, v := range entry {
		switch {
		case k == factsGathered:
			h.facts[k] = v
			h.gathered = v == true
		case facts.Unprefixed(k):
			h.facts[k] = v
		case strings.HasPrefix(k, "ansible_") && len(k) > len("ansible_"):
			h.facts[strings.TrimPrefix(k, "ansible_")] = v
		default:
			h.cachedFacts[k] = v
		}
	}
	rn.share.share(h.facts)
	h.refreshFacts()
	return nil
}

// cacheFacts writes h's facts to the run's fact cache: setup's under the
// names setup returns them, the other modules' (and cacheable
// set_fact's) under their own. A cache that cannot be written is a
// warning, as in Ansible.
func (rn *run) cacheFacts(h *hostRun) {
	if rn.r.FactCache == nil {
		return
	}
	entry := make(map[string]any, len(h.facts)+len(h.cachedFacts)+len(h.moduleFacts))
	for k, v := range h.facts {
		if k == factsGathered || facts.Unprefixed(k) {
			entry[k] = v
		} else {
			entry["ansible_"+k] = v
		}
	}
	maps.Copy(entry, h.cachedFacts)
	maps.Copy(entry, h.moduleFacts)
	if err := rn.r.FactCache.Set(h.name, entry); err != nil {
		rn.emit(Event{Kind: Warning, Host: h.name, Msg: err.Error()})
	}
}

// flushFactCache forgets the cached facts of every host of the
// inventory, as --flush-cache does before the first play.
func (rn *run) flushFactCache() error {
	if rn.r.FactCache == nil || rn.r.Inventory == nil {
		return nil
	}
	hosts, _ := rn.r.Inventory.Hosts("all") // none: nothing to flush
	for _, h := range hosts {
		if err := rn.r.FactCache.Delete(h.Name); err != nil {
			return fmt.Errorf("--flush-cache: %s: %w", h.Name, err)
		}
	}
	return nil
}
