// Package collection finds Ansible collections as ansible-core does:
// under the ansible_collections directory of each collection path, the
// first path holding a collection wins for all of it; a module, role or
// plugin is named by its fully qualified collection name (FQCN,
// namespace.collection[.subdirs].name), routed by the collection's
// meta/runtime.yml (redirects, tombstones, action plugins), and an
// unqualified name by the collection search list (the collections
// keyword). It also packs a collection module with the module_utils it
// imports, as a zip Python runs it from.
package collection

import (
	"regexp"
	"strings"
)

// Ref is a fully qualified collection reference.
type Ref struct {
	// Collection is namespace.name.
	Collection string
	// Subdirs are the dotted directories below the plugin type's
	// directory ("" for none).
	Subdirs string
	// Resource is the plugin's, module's or role's own name.
	Resource string
}

// String is the reference as written.
func (r Ref) String() string {
	if r.Subdirs == "" {
		return r.Collection + "." + r.Resource
	}
	return r.Collection + "." + r.Subdirs + "." + r.Resource
}

// Namespace is the collection's namespace.
func (r Ref) Namespace() string { ns, _, _ := strings.Cut(r.Collection, "."); return ns }

// routingKey is how meta/runtime.yml's plugin_routing names the
// resource: subdirs.resource.
func (r Ref) routingKey() string {
	if r.Subdirs == "" {
		return r.Resource
	}
	return r.Subdirs + "." + r.Resource
}

var reWord = regexp.MustCompile(`^\w+$`)

// pyKeywords are Python's reserved words, which no collection may be named.
var pyKeywords = map[string]bool{"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true, "import": true,
	"in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true}

// identifier reports whether s is a Python identifier that is no keyword.
func identifier(s string) bool {
	if s == "" || pyKeywords[s] || !reWord.MatchString(s) {
		return false
	}
	return s[0] < '0' || s[0] > '9'
}

// ValidCollectionName reports whether s is namespace.name, each a Python
// identifier that is no keyword.
func ValidCollectionName(s string) bool {
	ns, name, ok := strings.Cut(s, ".")
	return ok && identifier(ns) && identifier(name)
}

// ParseRef reads name as a fully qualified reference; ok is false when
// it is not one (fewer than three dotted parts, a namespace or collection
// that is no identifier, a part that is not a word). Roles take no
// subdirectories.
func ParseRef(name string, role bool) (Ref, bool) {
	parts := strings.Split(name, ".")
	if len(parts) < 3 || !identifier(parts[0]) || !identifier(parts[1]) {
		return Ref{}, false
	}
	for _, p := range parts[2:] {
		if !reWord.MatchString(p) {
			return Ref{}, false
		}
	}
	if role && len(parts) != 3 {
		return Ref{}, false
	}
	return Ref{Collection: parts[0] + "." + parts[1], Subdirs: strings.Join(parts[2:len(parts)-1], "."),
		Resource: parts[len(parts)-1]}, true
}

// Synthetic reports whether collection is one of ansible-core's own,
// ansible.builtin or ansible.legacy, which are no directory.
func Synthetic(collection string) bool {
	return collection == "ansible.builtin" || collection == "ansible.legacy"
}
