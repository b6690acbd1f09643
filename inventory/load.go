package inventory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/internal/hostpattern"
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
// comma that is not an existing path); with Options.Scripts (LoadWith),
// an inventory script too. host_vars/ and group_vars/ beside
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
	// KeepVaultValues leaves values tagged !vault encrypted, each as
	// {"__ansible_vault": its vault text}, as ansible-inventory --list
	// and --host show them (yaml11.Decoder.KeepVault).
	KeepVaultValues bool
	// HashMerge is Ansible's hash_behaviour=merge: a dict variable set
	// in several places (groups, sources, group_vars and host_vars
	// files) is their recursive merge instead of the last one's dict.
	HashMerge bool
	// DuplicateKeys is what a key given twice in a mapping of a YAML
	// inventory or vars file does: Ansible's DUPLICATE_YAML_DICT_KEY,
	// by default a warning (Warnings).
	DuplicateKeys yaml11.DuplicatePolicy
	// Plugins are Ansible's enabled inventory plugins (INVENTORY_ENABLED),
	// tried in order on each source until one takes it; nil is Ansible's
	// default, host_list, script, auto, yaml, ini, toml. tender has
	// host_list, advanced_host_list (host lists with ranges: "web[1:3],"),
	// script (with Scripts), yaml and ini; auto (a plugin configuration)
	// and toml take nothing here. Another name is refused.
	Plugins []string
	// Scripts lets the script plugin run an executable source (or one
	// that starts with "#!") with --list, and --host for each host when
	// its output has no _meta.hostvars, as Ansible does. Off, such a
	// file is read as a static inventory.
	Scripts bool
	// Context bounds the scripts' runs (Ctrl-C); nil never cancels.
	Context context.Context
	// QuietScripts is the script plugin's always_show_stderr set to
	// false: the stderr of a script that succeeds is not shown (Errors).
	QuietScripts bool
}

// defaultPlugins is Ansible's default INVENTORY_ENABLED.
var defaultPlugins = []string{"host_list", "script", "auto", "yaml", "ini", "toml"}

// knownPlugins are the inventory plugins Plugins may name.
var knownPlugins = map[string]bool{"host_list": true, "advanced_host_list": true, "script": true, "auto": true,
	"yaml": true, "ini": true, "toml": true}

// pluginNames returns o's plugins by their short names, refusing one
// tender does not know.
func (o Options) pluginNames() ([]string, error) {
	if o.Plugins == nil {
		return defaultPlugins, nil
	}
	out := make([]string, 0, len(o.Plugins))
	for _, p := range o.Plugins {
		short := fqcn.Short(strings.TrimSpace(p))
		if !knownPlugins[short] {
			return nil, fmt.Errorf("inventory plugin %s is not available in tender (it has host_list, advanced_host_list, script, auto, yaml, ini, toml)", p)
		}
		out = append(out, short)
	}
	return out, nil
}

// LoadWith is Load with options.
func LoadWith(o Options, sources ...string) (*Inventory, error) {
	inv := New()
	inv.decrypt = o.Decrypt
	inv.keepVault = o.KeepVaultValues
	inv.hashMerge = o.HashMerge
	inv.dupKeys = o.DuplicateKeys
	plugins, err := o.pluginNames()
	if err != nil {
		return nil, err
	}
	o.Plugins = plugins
	inv.opts = o
	for _, src := range sources {
		if src == "" {
			continue
		}
		if _, err := os.Stat(src); err != nil && strings.Contains(src, ",") {
			if err := inv.parseHostList(src); err != nil {
				return nil, err
			}
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

// LoadFile parses one inventory file into inv with the first of the
// enabled plugins (Options.Plugins) that takes it, as Ansible's do: the
// script plugin runs an executable file (with Options.Scripts); yaml
// reads a file named *.yml, *.yaml, *.json or without an extension that
// holds a YAML mapping; ini reads any file. A plugin that fails passes the
// file to the next. When none takes it the error is the script's, for a
// file that starts with "#!", else the YAML parser's for a *.yml,
// *.yaml or *.json file, else the INI parser's. It does not read
// host_vars/group_vars (Load does).
func (inv *Inventory) LoadFile(path string) error {
	defer inv.changed()
	plugins := inv.opts.Plugins
	if plugins == nil {
		plugins = defaultPlugins
	}
	var scriptErr error
	if slices.Contains(plugins, "script") && inv.opts.Scripts && isScript(path) {
		// run by its absolute path, as Ansible names the source
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		stderr, err := inv.loadScript(inv.opts.Context, abs)
		if err == nil {
			if stderr != "" && !inv.opts.QuietScripts {
				// Ansible shows a script's stderr even when it succeeds
				// (always_show_stderr).
				inv.shown = append(inv.shown, strings.TrimRight(stderr, "\n"))
			}
			return nil
		}
		if ctx := inv.opts.Context; ctx != nil && ctx.Err() != nil {
			return err
		}
		scriptErr = &ParseError{File: path, Msg: err.Error()}
	}
	src, err := yaml11.ReadFile(path)
	if err != nil {
		return err
	}
	if src, err = inv.decoder().Open(src, path); err != nil {
		return err
	}
	err = inv.loadStatic(path, src, plugins)
	if err != nil && scriptErr != nil && hasShebang(src) {
		return scriptErr
	}
	return err
}

// loadStatic parses a static inventory file with the yaml or ini plugin,
// whichever is enabled first and takes it.
func (inv *Inventory) loadStatic(path string, src []byte, plugins []string) error {
	ext := filepath.Ext(path)
	if ext == ".toml" && slices.Contains(plugins, "toml") {
		return &ParseError{File: path, Msg: "TOML inventories are not supported"}
	}
	yamlFile := ext == "" || ext == ".yml" || ext == ".yaml" || ext == ".json"
	var first error
	for _, p := range plugins {
		switch {
		case p == "yaml" && yamlFile:
			root, yerr := decodeYAML(src)
			if yerr == nil && root != nil && root.Kind == yaml.MappingNode {
				return inv.ParseYAML(path, src)
			}
			if ext != "" && first == nil {
				first = New().ParseYAML(path, src)
			}
		case p == "ini":
			if err := New().ParseINI(path, src); err != nil {
				if first == nil {
					first = err
				}
				continue
			}
			return inv.ParseINI(path, src)
		}
	}
	if first == nil {
		first = &ParseError{File: path, Msg: fmt.Sprintf("no enabled inventory plugin (%s) could parse it", strings.Join(plugins, ", "))}
	}
	return first
}

// hasShebang reports whether a file's text starts with "#!".
func hasShebang(src []byte) bool { return bytes.HasPrefix(src, []byte("#!")) }

// parseHostList adds the hosts of a "host1,host2:22," source to
// ungrouped, with the first of the host_list and advanced_host_list
// plugins that is enabled: the advanced one expands ranges ("web[1:3]").
func (inv *Inventory) parseHostList(src string) error {
	plugin := ""
	for _, p := range inv.opts.Plugins {
		if p == "host_list" || p == "advanced_host_list" {
			plugin = p
			break
		}
	}
	if plugin == "" && inv.opts.Plugins != nil {
		return fmt.Errorf("inventory source %s: no enabled inventory plugin (%s) parses a host list", src, strings.Join(inv.opts.Plugins, ", "))
	}
	inv.source = src
	defer func() { inv.source = "" }()
	for _, h := range strings.Split(src, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if plugin == "advanced_host_list" {
			names, port, err := expandHostPattern(h, false)
			var ve *rangeValueError
			switch {
			case errors.As(err, &ve):
				return fmt.Errorf("Failed to parse %s with advanced_host_list plugin: Invalid data from string, could not parse: %s", src, ve.msg)
			case err != nil:
				// As Ansible: the entry is kept as written.
				inv.notes = append(inv.notes, "Unable to parse address from hostname, leaving unchanged: "+err.Error())
				names, port = []string{h}, 0
			}
			for _, n := range names {
				inv.groups["ungrouped"].addHost(inv.addHost(n, port))
			}
			continue
		}
		host, port, ok := hostpattern.ParseAddress(h)
		if !ok || strings.Contains(host, "[") {
			host, port = h, 0
		}
		inv.groups["ungrouped"].addHost(inv.addHost(host, port))
	}
	inv.reconcile()
	return nil
}
