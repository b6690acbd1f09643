package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/provision"
)

// factCache is the fact cache Ansible's settings ask for: fact_caching
// (CACHE_PLUGIN) memory, tender's nil (facts kept for the run), or
// jsonfile, in fact_caching_connection with fact_caching_prefix and
// fact_caching_timeout (the jsonfile plugin's _uri, _prefix and
// _timeout). Any other cache plugin is refused: tender has these two.
func factCache(cfg *config.Config) (provision.FactCache, error) {
	v, err := cfg.Setting("CACHE_PLUGIN")
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	name := strings.TrimPrefix(strings.TrimPrefix(fmt.Sprint(v), "ansible.builtin."), "ansible.legacy.")
	switch name {
	case "memory", "", "<nil>":
		return nil, nil
	case "jsonfile":
	default:
		return nil, &exitError{code: 5, err: fmt.Errorf("fact_caching = %s (%s): tender has the memory and jsonfile fact caches, not %s", v, cfg.Origin("CACHE_PLUGIN"), v)}
	}
	opt := func(o string) (any, error) {
		v, err := cfg.PluginOption("cache", "jsonfile", o, nil)
		// _uri is required: without it, NewJSONFileCache says what
		// Ansible says.
		var ce *config.Error
		if err != nil && (!errors.As(err, &ce) || ce.Class != config.Unhandled) {
			return nil, &exitError{code: 5, err: err}
		}
		return v, nil
	}
	uri, err := opt("_uri")
	if err != nil {
		return nil, err
	}
	prefix, err := opt("_prefix")
	if err != nil {
		return nil, err
	}
	timeout, err := opt("_timeout")
	if err != nil {
		return nil, err
	}
	secs, _ := timeout.(int)
	dir, pre := "", ""
	if uri != nil {
		dir = fmt.Sprint(uri)
	}
	if prefix != nil {
		pre = fmt.Sprint(prefix)
	}
	c, err := provision.NewJSONFileCache(dir, pre, time.Duration(secs)*time.Second)
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	return c, nil
}
