package yaml11

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/vault"
)

// ReadFile reads a YAML file that may be vault-encrypted (an inventory,
// a vars file), bounded as vault.ReadFile bounds it: vault data over
// vault.MaxSize, or malformed, is refused without being read whole.
func ReadFile(path string) ([]byte, error) { return vault.ReadFile(path) }

// ReadVars reads a vars file (YAML, or JSON, which is YAML too) whose top
// level is a mapping of variables, as vars_files and include_vars read
// them. An empty file is an empty mapping. Errors name the file, and the
// line and column where the YAML is at fault.
func ReadVars(path string) (map[string]any, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vars file: %w", err)
	}
	return Vars(data, path)
}

// Vars reads a YAML (or JSON) document whose top level is a mapping of
// variables; name is what errors call it.
func Vars(data []byte, name string) (map[string]any, error) {
	return NewDecoder().Vars(data, name)
}

// ReadVars is the package's ReadVars with the decoder's Decrypt: a whole
// vault-encrypted file and `!vault` values in it are decrypted.
func (d *Decoder) ReadVars(path string) (map[string]any, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vars file: %w", err)
	}
	return d.Vars(data, path)
}

// Vars is the package's Vars with the decoder's Decrypt: a whole
// vault-encrypted document and `!vault` values in it are decrypted.
func (d *Decoder) Vars(data []byte, name string) (map[string]any, error) {
	data, err := d.Open(data, name)
	if err != nil {
		return nil, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := CheckDuplicates(d.Duplicates, d.Warn, data, &n, name); err != nil {
		return nil, fmt.Errorf("%s:%w", name, err)
	}
	v, err := d.Value(&n)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", name, err)
	}
	if v == nil {
		return map[string]any{}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a vars file must hold a mapping of variables", name)
	}
	return m, nil
}

// VarsList reads a play's vars file, which may also hold a list of
// mappings (each applied in turn, later ones winning), as Ansible's
// vars_files accepts; a mapping is a list of one. name is what errors
// call it.
func (d *Decoder) VarsList(data []byte, name string) ([]map[string]any, error) {
	data, err := d.Open(data, name)
	if err != nil {
		return nil, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := CheckDuplicates(d.Duplicates, d.Warn, data, &n, name); err != nil {
		return nil, fmt.Errorf("%s:%w", name, err)
	}
	if n.Kind == 0 {
		return nil, nil // an empty file
	}
	v, err := d.Value(&n)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", name, err)
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return []map[string]any{x}, nil
	case []any:
		out := make([]map[string]any, 0, len(x))
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: variable files must contain either a dictionary of variables, or a list of dictionaries", name)
			}
			out = append(out, m)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: variable files must contain either a dictionary of variables, or a list of dictionaries", name)
}
