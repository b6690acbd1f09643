package facts

import (
	"strings"

	"github.com/tender-sh/tender/internal/fnmatch"
)

// Filter returns the facts whose names match one of patterns, as
// ansible-core 2.14's setup module applies its filter parameter
// (AnsibleFactCollector._filter): patterns are Python fnmatch patterns
// matched against the whole name as setup returns it, ansible_os_family
// for os_family (gather_subset and module_setup under their own names,
// see Unprefixed); a pattern that does not start with "ansible_",
// "facter" or "ohai" also matches as "ansible_" + pattern, so "os*" is
// "ansible_os*"; an empty pattern matches every fact. No patterns at all
// means no filter: facts itself is returned.
//
// Only the top-level names are filtered, never keys inside a fact.
// Matching is case-sensitive, as fnmatch is on POSIX; "*" and "?" match
// any character, "[seq]" and "[!seq]" a character in or out of seq
// (ranges "a-z"; a "]" first in seq is literal; a "[" without a closing
// "]" is literal), and a backslash is an ordinary character. Filter
// after Subset: Ansible filters gather_subset and module_setup too.
//
// facts is not changed; values are shared, not copied.
func Filter(facts map[string]any, patterns []string) map[string]any {
	if len(patterns) == 0 {
		return facts
	}
	var globs []fnmatch.Pattern
	for _, p := range patterns {
		if p == "" {
			return facts
		}
		globs = append(globs, fnmatch.Compile(p))
		if !strings.HasPrefix(p, "ansible_") && !strings.HasPrefix(p, "facter") && !strings.HasPrefix(p, "ohai") {
			globs = append(globs, fnmatch.Compile("ansible_"+p))
		}
	}
	out := make(map[string]any, len(facts))
	for k, v := range facts {
		name := k
		if !Unprefixed(k) {
			name = "ansible_" + k
		}
		for _, g := range globs {
			if g.Match(name) {
				out[k] = v
				break
			}
		}
	}
	return out
}
