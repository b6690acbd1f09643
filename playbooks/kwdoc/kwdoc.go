// Package kwdoc holds the documentation of the playbook keywords, as
// `tender doc -t keyword` shows it: a description of each in tender's
// own words (keywords.yml) and the facts ansible-core 2.14 records for
// it (facts.json, written by gen.py): what it applies to (Play, Role,
// Block, Task), its type, priority and how it is templated.
package kwdoc

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed keywords.yml facts.json
var files embed.FS

// Keyword is one keyword's documentation.
type Keyword struct {
	// Description is what the keyword does in tender.
	Description string
	// Facts are ansible-core's facts of it: applies_to, priority,
	// template, type.
	Facts map[string]any
}

// All returns every keyword's documentation by name.
var All = sync.OnceValues(load)

// load reads keywords.yml and facts.json, which must name the same
// keywords.
func load() (map[string]Keyword, error) {
	b, err := files.ReadFile("keywords.yml")
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var words map[string]string
	if err := dec.Decode(&words); err != nil {
		return nil, fmt.Errorf("playbooks/kwdoc/keywords.yml: %v", err)
	}
	b, err = files.ReadFile("facts.json")
	if err != nil {
		return nil, err
	}
	var facts map[string]map[string]any
	if err := json.Unmarshal(b, &facts); err != nil {
		return nil, fmt.Errorf("playbooks/kwdoc/facts.json: %v", err)
	}
	all := map[string]Keyword{}
	for name, f := range facts {
		w, ok := words[name]
		if !ok || w == "" {
			return nil, fmt.Errorf("playbooks/kwdoc/keywords.yml: the keyword %s is not described", name)
		}
		all[name] = Keyword{Description: w, Facts: f}
	}
	for name := range words {
		if _, ok := facts[name]; !ok {
			return nil, fmt.Errorf("playbooks/kwdoc/keywords.yml: %s is not a keyword (facts.json)", name)
		}
	}
	return all, nil
}

// Names lists the keywords, sorted.
func Names() []string {
	all, _ := All()
	return slices.Sorted(maps.Keys(all))
}
