package playbooks

import "github.com/tender-sh/tender/internal/pykv"

// ErrUnbalanced is returned (wrapped) by SplitArgs when a quote or a Jinja2
// block ({{ }}, {% %}, {# #}) is left open.
var ErrUnbalanced = pykv.ErrUnbalanced

// KV is one key=value pair of a module argument string, in written order.
type KV = pykv.KV

// SplitArgs splits a module argument string on whitespace the way Ansible's
// split_args does (see pykv.SplitArgs).
func SplitArgs(s string) ([]string, error) { return pykv.SplitArgs(s) }

// ParseKV parses a module argument string into key=value pairs in written
// order and the free words, as Ansible's parse_kv does (see pykv.ParseKV).
func ParseKV(s string, freeForm bool) (pairs []KV, raw string, err error) {
	return pykv.ParseKV(s, freeForm)
}

// SplitKV parses "k=v k2='v 2'" into a map with free words under
// "_raw_params", as Ansible's parse_kv without check_raw (see pykv.SplitKV).
func SplitKV(s string) (map[string]any, error) { return pykv.SplitKV(s) }
