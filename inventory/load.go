package inventory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/yaml11"
)

// ignoredEntry matches directory entries Ansible skips when a directory is
// an inventory source: hidden files, host_vars, group_vars, vars_plugins,
// and INVENTORY_IGNORE_EXTS (whose 2.14 default ignores .ini and .cfg too).
var ignoredEntry = regexp.MustCompile(`^\.|^host_vars$|^group_vars$|^vars_plugins$|` +
	`(?:\.pyc|\.pyo|\.swp|\.bak|~|\.rpm|\.md|\.txt|\.rst|\.orig|\.ini|\.cfg|\.retry)$`)

// Load reads inventory sources and merges them in order, as `-i` given
// several times does. A source is an INI or YAML inventory file, a
// directory of them (read in sorted order, ignoring the entries Ansible
// ignores), or a comma-separated host list such as "web1,web2," (one with a
// comma that is not an existing path). host_vars/ and group_vars/ beside
// each source (inside it, for a directory) are read for every host and
// group; errors in them are reported here.
//
// Unlike ansible, which warns and goes on with what it could parse, Load
// fails on the first source that is missing or cannot be parsed; only an
// inventory plugin configuration (`plugin: ...`) inside a directory source
// is skipped, with a warning.
func Load(sources ...string) (*Inventory, error) {
	return LoadWith(Options{}, sources...)
}

// Options are how LoadWith reads inventory sources.
type Options struct {
	// Decrypt opens Ansible Vault data (a vault.Keyring's Decrypt fits
	// it): vault-encrypted inventory files, host_vars/group_vars files,
	// and values tagged !vault in YAML inventories and vars files are
	// decrypted with it. Nil refuses them.
	Decrypt func(vaulttext []byte) ([]byte, error)
	// HashMerge is Ansible's hash_behaviour=merge: a dict variable set
	// in several places (groups, sources, group_vars and host_vars
	// files) is their recursive merge instead of the last one's dict.
	HashMerge bool
	// DuplicateKeys is what a key given twice in a mapping of a YAML
	// inventory or vars file does: Ansible's DUPLICATE_YAML_DICT_KEY,
	// by default a warning (Warnings).
	DuplicateKeys yaml11.DuplicatePolicy
}

// LoadWith is Load with options.
func LoadWith(o Options, sources ...string) (*Inventory, error) {
	inv := New()
	inv.decrypt = o.Decrypt
	inv.hashMerge = o.HashMerge
	inv.dupKeys = o.DuplicateKeys
	for _, src := range sources {
		if src == "" {
			continue
		}
		if _, err := os.Stat(src); err != nil && strings.Contains(src, ",") {
			inv.parseHostList(src)
			continue
		}
		abs, err := filepath.Abs(src)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("inventory source %s: %w", src, err)
		}
		if err := inv.loadPath(src, st.IsDir()); err != nil {
			return nil, err
		}
		if st.IsDir() {
			inv.varsDirs = append(inv.varsDirs, abs)
		} else {
			inv.varsDirs = append(inv.varsDirs, filepath.Dir(abs))
		}
	}
	inv.reconcile()
	if err := inv.preload(); err != nil {
		return nil, err
	}
	return inv, nil
}

func (inv *Inventory) loadPath(path string, dir bool) error {
	if !dir {
		return inv.LoadFile(path)
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		if ignoredEntry.MatchString(n) {
			continue
		}
		p := filepath.Join(path, n)
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if err := inv.loadPath(p, st.IsDir()); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) && pe.Msg == msgPluginConfig {
				// An inventory plugin's configuration (aws_ec2, ...) beside
				// static inventories: tender has no such plugins.
				inv.warnings = append(inv.warnings, p+": skipped, an inventory plugin configuration")
				continue
			}
			return err
		}
	}
	return nil
}

// LoadFile parses one inventory file into inv, choosing the format as
// Ansible's plugins do: a file named *.yml, *.yaml, *.json or without an
// extension is tried as YAML first and as INI if it is not a YAML
// inventory; any other file is INI. It does not read host_vars/group_vars
// (Load does).
func (inv *Inventory) LoadFile(path string) error {
	defer inv.changed()
	src, err := yaml11.ReadFile(path)
	if err != nil {
		return err
	}
	if src, err = inv.decoder().Open(src, path); err != nil {
		return err
	}
	ext := filepath.Ext(path)
	switch ext {
	case ".toml":
		return &ParseError{File: path, Msg: "TOML inventories are not supported"}
	case "", ".yml", ".yaml", ".json":
		root, yerr := decodeYAML(src)
		if yerr == nil && root != nil && root.Kind == yaml.MappingNode {
			return inv.ParseYAML(path, src)
		}
		if ext != "" {
			// Not a YAML inventory: Ansible's ini plugin gets its turn.
			if New().ParseINI(path, src) == nil {
				return inv.ParseINI(path, src)
			}
			return New().ParseYAML(path, src)
		}
	}
	return inv.ParseINI(path, src)
}

// parseHostList adds the hosts of a "host1,host2:22," source to ungrouped.
func (inv *Inventory) parseHostList(src string) {
	for _, h := range strings.Split(src, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		host, port, ok := parseAddress(h)
		if !ok || strings.Contains(host, "[") {
			host, port = h, 0
		}
		inv.source = src
		inv.groups["ungrouped"].addHost(inv.addHost(host, port))
		inv.source = ""
	}
	inv.reconcile()
}
