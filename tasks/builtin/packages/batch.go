package packages

import (
	"maps"
	"reflect"

	"github.com/tender-sh/tender/tasks"
)

// mergeSpecs is the part of deciding whether a loop's items can be one
// package transaction that apt and dnf/yum share: every item must carry
// the same arguments but for the package lists (the keys in pkgKeys), and
// specs must give each item at least one package spec. It returns each
// item's specs, or false when the items must run one by one.
func mergeSpecs(items []tasks.Args, pkgKeys []string, specs func(tasks.Args) ([]string, bool)) ([][]string, bool) {
	rest := func(args tasks.Args) tasks.Args {
		r := maps.Clone(args)
		for _, k := range pkgKeys {
			delete(r, k)
		}
		return r
	}
	first := rest(items[0])
	out := make([][]string, len(items))
	for i, item := range items {
		if !reflect.DeepEqual(rest(item), first) {
			return nil, false
		}
		s, ok := specs(item)
		if !ok || len(s) == 0 {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}
