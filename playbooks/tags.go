package playbooks

import "slices"

// TagFilter is the --tags / --skip-tags selection of a run.
type TagFilter struct {
	Only []string // --tags; empty means "all"
	Skip []string // --skip-tags
}

// Selects reports whether a task with the given effective tags runs under
// the filter, by Ansible's rules: an untagged task counts as tagged
// "untagged"; "always" runs unless skipped by name; "never" runs only when
// asked for by name; "all" and "tagged" select what their names say.
func (f TagFilter) Selects(tags []string) bool {
	if len(tags) == 0 {
		tags = []string{"untagged"}
	}
	has := func(set []string, t string) bool { return slices.Contains(set, t) }
	meets := func(set []string) bool {
		for _, t := range tags {
			if has(set, t) {
				return true
			}
		}
		return false
	}
	untagged := len(tags) == 1 && tags[0] == "untagged"

	only := f.Only
	if len(only) == 0 {
		only = []string{"all"}
	}
	switch {
	case has(tags, "always"):
	case has(only, "all") && !has(tags, "never"):
	case meets(only):
	case has(only, "tagged") && !untagged && !has(tags, "never"):
	default:
		return false
	}

	switch {
	case len(f.Skip) == 0:
		return true
	case has(f.Skip, "all"):
		return has(tags, "always") && !has(f.Skip, "always")
	case meets(f.Skip):
		return false
	case has(f.Skip, "tagged") && !untagged:
		return false
	}
	return true
}
