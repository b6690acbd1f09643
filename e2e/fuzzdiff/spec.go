package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// optSpec is one module option as the recorded specs describe it.
type optSpec struct {
	Type    string   `json:"type"`
	Choices []any    `json:"choices"`
	Aliases []string `json:"aliases"`
}

// modSpec is one module's recorded argument spec.
type modSpec struct {
	Options map[string]optSpec `json:"options"`
}

// Specs are the recorded module specs (tasks/builtin/testdata/specs).
type Specs map[string]modSpec

// LoadSpecs reads the recorded specs from path.
func LoadSpecs(path string) (Specs, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Specs
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// safeOptions are, per module the generator draws options for, the
// options it may set: those whose effect stays inside the case's work
// directory and prints nothing that differs between two runs (no backup
// file names, owners or times).
var safeOptions = map[string][]string{
	"file":       {"path", "state", "mode", "force", "follow", "recurse"},
	"copy":       {"dest", "content", "mode", "force", "directory_mode"},
	"lineinfile": {"path", "line", "regexp", "state", "create", "insertafter", "insertbefore", "backrefs", "firstmatch", "mode"},
	"stat":       {"path", "follow", "get_checksum", "checksum_algorithm"},
	"template":   {"src", "dest", "mode", "force", "trim_blocks", "lstrip_blocks", "newline_sequence"},
}

// name is the option's own name or, sometimes, one of its aliases.
func (s Specs) name(g *exprGen, mod, opt string) string {
	o := s[mod].Options[opt]
	if len(o.Aliases) > 0 && g.chance(30) {
		return o.Aliases[g.r.Intn(len(o.Aliases))]
	}
	return opt
}

// choices are the option's recorded choices, as strings, sorted.
func (s Specs) choices(mod, opt string) []string {
	var out []string
	for _, c := range s[mod].Options[opt].Choices {
		out = append(out, fmt.Sprint(c))
	}
	sort.Strings(out)
	return out
}

// typeOf is the option's recorded type.
func (s Specs) typeOf(mod, opt string) string { return s[mod].Options[opt].Type }
