// Package cbdoc holds the documentation of the callbacks tender has, as
// `tender doc -t callback` shows it: each callback's description and
// options in tender's own words (FQCN.yml), and the facts ansible-core
// 2.14 and the collections record for them (facts.json, written by
// gen.py): the callback's type and each option's type, default, choices
// and the environment variables and ansible.cfg keys that set it.
package cbdoc

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tender-sh/tender/playbooks/expr/plugdoc"
)

//go:embed *.yml facts.json
var files embed.FS

// Option is one callback option's facts.
type Option struct {
	Type     string   `json:"type"`
	Default  any      `json:"default"`
	Choices  any      `json:"choices"`
	Required bool     `json:"required"`
	Env      []string `json:"env"`
	Ini      []struct {
		Section string `json:"section"`
		Key     string `json:"key"`
	} `json:"ini"`
	Vars []string `json:"vars"`
	Cli  []string `json:"cli"`
}

// Facts are one callback's recorded facts.
type Facts struct {
	Type    string            `json:"type"`
	Options map[string]Option `json:"options"`
}

// Callback is one callback's documentation.
type Callback struct {
	FQCN  string
	Doc   *plugdoc.Doc
	Facts Facts
}

// All returns the documentation of every callback tender has, by fully
// qualified name.
var All = sync.OnceValues(load)

// load reads facts.json and a documentation file for each callback in it.
func load() (map[string]Callback, error) {
	b, err := files.ReadFile("facts.json")
	if err != nil {
		return nil, err
	}
	var facts map[string]Facts
	if err := json.Unmarshal(b, &facts); err != nil {
		return nil, fmt.Errorf("provision/report/cbdoc/facts.json: %v", err)
	}
	all := map[string]Callback{}
	for name, f := range facts {
		file := name + ".yml"
		b, err := files.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("provision/report/cbdoc: the callback %s has no %s", name, file)
		}
		d, err := plugdoc.Decode(b, "provision/report/cbdoc/"+file)
		if err != nil {
			return nil, err
		}
		all[name] = Callback{FQCN: name, Doc: d, Facts: f}
	}
	return all, nil
}

// Names lists the callbacks, sorted.
func Names() []string {
	all, _ := All()
	return slices.Sorted(maps.Keys(all))
}

// Find returns the callback named name, by its full or short name.
func Find(name string) (Callback, bool) {
	all, _ := All()
	if c, ok := all[name]; ok {
		return c, true
	}
	for full, c := range all {
		if full[strings.LastIndex(full, ".")+1:] == name {
			return c, true
		}
	}
	return Callback{}, false
}

// SetVia renders how an option is set, as ansible-doc's set_via block:
// its environment variables, ansible.cfg keys and variables.
func (o Option) SetVia() []string {
	var out []string
	if len(o.Env) > 0 {
		out = append(out, "env:")
		for _, e := range o.Env {
			out = append(out, "- name: "+e)
		}
	}
	if len(o.Ini) > 0 {
		out = append(out, "ini:")
		for _, i := range o.Ini {
			out = append(out, "- key: "+i.Key, "  section: "+i.Section)
		}
	}
	if len(o.Vars) > 0 {
		out = append(out, "vars:")
		for _, v := range o.Vars {
			out = append(out, "- name: "+v)
		}
	}
	return out
}
