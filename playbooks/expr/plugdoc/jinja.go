package plugdoc

import (
	"bytes"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"
)

// jinjaEntry is the documentation of one of Jinja2's builtin filters or
// tests (jinja/KIND.yml): ansible-core documents none of them, so the
// facts of their options are written beside the words.
type jinjaEntry struct {
	Doc   `yaml:",inline"`
	Facts map[string]Option `yaml:"facts"`
}

// loadJinja reads jinja/filter.yml and jinja/test.yml strictly, once.
var loadJinja = sync.OnceValues(func() (map[string]map[string]jinjaEntry, error) {
	byKind := map[string]map[string]jinjaEntry{}
	for _, kind := range []string{"filter", "test"} {
		file := "jinja/" + kind + ".yml"
		b, err := files.ReadFile(file)
		if err != nil {
			continue
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		m := map[string]jinjaEntry{}
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("playbooks/expr/plugdoc/%s: %v", file, err)
		}
		for name, e := range m {
			if e.Short == "" {
				return nil, fmt.Errorf("playbooks/expr/plugdoc/%s: %s has no short description", file, name)
			}
		}
		byKind[kind] = m
	}
	return byKind, nil
})

// Jinja returns the documentation and option facts of Jinja2's builtin
// filter or test name, and whether tender documents it.
func Jinja(kind, name string) (*Doc, Facts, bool) {
	all, err := loadJinja()
	if err != nil {
		return nil, Facts{}, false
	}
	e, ok := all[kind][name]
	if !ok {
		return nil, Facts{}, false
	}
	d := e.Doc
	return &d, Facts{Options: e.Facts}, true
}

// JinjaNames lists the Jinja2 builtins of kind documented in
// jinja/KIND.yml, and the file's error if it cannot be read.
func JinjaNames(kind string) ([]string, error) {
	all, err := loadJinja()
	var out []string
	for n := range all[kind] {
		out = append(out, n)
	}
	return out, err
}
