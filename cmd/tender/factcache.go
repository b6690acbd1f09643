package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/provision"
)

// ledgerCacheOptions are the options of tender's ledger fact cache, read
// from the same settings as Ansible's cache plugins': the ledger
// (fact_caching_connection; the run's --state when unset), the key
// prefix and the timeout. The connection is a string: a postgres:// URL
// is not a path.
var ledgerCacheOptions = map[string]config.Setting{
	"_prefix":  {Name: "_prefix", Env: []string{"ANSIBLE_CACHE_PLUGIN_PREFIX"}, Ini: []config.IniEntry{{Section: "defaults", Key: "fact_caching_prefix"}}},
	"_timeout": {Name: "_timeout", Type: "integer", Default: 86400, Env: []string{"ANSIBLE_CACHE_PLUGIN_TIMEOUT"}, Ini: []config.IniEntry{{Section: "defaults", Key: "fact_caching_timeout"}}},
	"_uri":     {Name: "_uri", Type: "str", Env: []string{"ANSIBLE_CACHE_PLUGIN_CONNECTION"}, Ini: []config.IniEntry{{Section: "defaults", Key: "fact_caching_connection"}}},
}

// factCache is the fact cache Ansible's settings ask for: fact_caching
// (CACHE_PLUGIN) memory, tender's nil (facts kept for the run);
// jsonfile, in fact_caching_connection with fact_caching_prefix and
// fact_caching_timeout (the jsonfile plugin's _uri, _prefix and
// _timeout); or ledger, tender's own: the facts kept in the ledger
// (fact_caching_connection, else --state), where every controller
// sharing a PostgreSQL ledger finds them. Any other cache plugin is
// refused. The closer releases what the cache holds open.
func factCache(c *cli.Context, cfg *config.Config) (provision.FactCache, io.Closer, error) {
	v, err := cfg.Setting("CACHE_PLUGIN")
	if err != nil {
		return nil, nil, &exitError{code: 5, err: err}
	}
	name := strings.TrimPrefix(strings.TrimPrefix(fmt.Sprint(v), "ansible.builtin."), "ansible.legacy.")
	var opt func(o string) (any, error)
	switch name {
	case "memory", "", "<nil>":
		return nil, nil, nil
	case "jsonfile":
		opt = func(o string) (any, error) { return cfg.PluginOption("cache", "jsonfile", o, nil) }
	case "ledger":
		opt = func(o string) (any, error) { return cfg.OptionOf("cache", "ledger", ledgerCacheOptions[o]) }
	default:
		return nil, nil, &exitError{code: 5, err: fmt.Errorf("fact_caching = %s (%s): tender has the memory, jsonfile and ledger fact caches, not %s", v, cfg.Origin("CACHE_PLUGIN"), v)}
	}
	var vals [3]any
	for i, o := range []string{"_uri", "_prefix", "_timeout"} {
		v, err := opt(o)
		// jsonfile's _uri is required: without it, NewJSONFileCache
		// says what Ansible says.
		var ce *config.Error
		if err != nil && (!errors.As(err, &ce) || ce.Class != config.Unhandled) {
			return nil, nil, &exitError{code: 5, err: err}
		}
		if v != nil {
			vals[i] = v
		}
	}
	uri, prefix := "", ""
	if vals[0] != nil {
		uri = fmt.Sprint(vals[0])
	}
	if vals[1] != nil {
		prefix = fmt.Sprint(vals[1])
	}
	secs, _ := vals[2].(int)
	timeout := time.Duration(secs) * time.Second
	if name == "jsonfile" {
		fc, err := provision.NewJSONFileCache(uri, prefix, timeout)
		if err != nil {
			return nil, nil, &exitError{code: 5, err: err}
		}
		return fc, nil, nil
	}
	l, err := openFactLedger(c, uri)
	if err != nil {
		return nil, nil, &exitError{code: 5, err: fmt.Errorf("fact_caching = ledger: %w", err)}
	}
	return store.NewFactCache(l, prefix, timeout), l, nil
}

// openFactLedger opens the ledger the ledger fact cache keeps its facts
// in: uri (a SQLite path, ~ expanded, or a postgres:// URL), else the
// run's ledger.
func openFactLedger(c *cli.Context, uri string) (store.Ledger, error) {
	if uri == "" {
		return openLedger(c, false)
	}
	if !store.IsURL(uri) && (uri == "~" || strings.HasPrefix(uri, "~/")) {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, err
		}
		uri = filepath.Join(home, uri[1:])
	}
	return store.OpenState(c.Context, uri, false)
}
