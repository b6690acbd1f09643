package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
)

// loadConfig reads Ansible's configuration as ansible-playbook does when
// it starts: the ANSIBLE_* variables and the ansible.cfg its search order
// finds, with the command line's values as ansible-playbook's would give
// them (the last --private-key, made absolute). What Ansible would warn
// about is printed; a setting that does not read is an error (exit 5, as
// ansible-playbook). The settings tender applies are in appliedSettings;
// it warns about the others that are set.
func loadConfig(c *cli.Context) (*config.Config, error) {
	given := map[string]any{}
	if u := c.String("user"); u != "" {
		given["remote_user"] = u
	}
	for flag, name := range map[string]string{"ssh-common-args": "ssh_common_args", "ssh-extra-args": "ssh_extra_args",
		"connection": "connection", "become-user": "become_user", "become-method": "become_method"} {
		if c.IsSet(flag) {
			given[name] = c.String(flag)
		}
	}
	if c.IsSet("timeout") {
		given["timeout"] = c.Int("timeout")
	}
	if keys := c.StringSlice("private-key"); len(keys) > 0 {
		k, err := filepath.Abs(keys[len(keys)-1])
		if err != nil {
			return nil, &exitError{code: 5, err: err}
		}
		given["private_key_file"] = k
	}
	cfg, err := config.Load(config.Options{CLI: given})
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	for _, w := range cfg.Warnings() {
		printWarning(c.App.ErrWriter, w)
	}
	if c.Count("verbose") > 0 {
		if f := cfg.File(); f != "" {
			fmt.Fprintf(c.App.Writer, "Using %s as config file\n", f)
		} else {
			fmt.Fprintln(c.App.Writer, "No config file found; using defaults")
		}
	}
	// Settings are read for the config lookup; the ones that would change
	// what ansible-playbook does are not acted on yet: say so rather than
	// seem to honour them.
	var ignored []string
	adhoc := c.Command != nil && c.Command.Name == adhocName
	for _, name := range cfg.Changed() {
		v, _ := cfg.Setting(name)
		if applied, ok := appliedValues[name]; ok && !applied(v, adhoc) || !ok && !appliedSettings[name] {
			ignored = append(ignored, name+" ("+cfg.Origin(name)+")")
		}
	}
	if len(ignored) > 0 {
		printWarning(c.App.ErrWriter, fmt.Sprintf("tender does not apply these Ansible settings yet (its own flags do what they do): %s", strings.Join(ignored, ", ")))
	}
	return cfg, nil
}

// appliedSettings are the Ansible settings tender acts on (or, for the
// warning and display ones, whose effect it already has).
var appliedSettings = map[string]bool{
	"ANSIBLE_NOCOLOR": true, "ANSIBLE_FORCE_COLOR": true, "DEFAULT_FORKS": true, "DEFAULT_HOST_LIST": true,
	"DEFAULT_REMOTE_USER": true, "DEFAULT_PRIVATE_KEY_FILE": true, "DEFAULT_TIMEOUT": true,
	"HOST_KEY_CHECKING": true, "DEFAULT_TRANSPORT": true, "DEFAULT_REMOTE_PORT": true,
	"DEFAULT_ROLES_PATH": true, "DEFAULT_MODULE_PATH": true, "COLLECTIONS_PATHS": true, "COLLECTIONS_SCAN_SYS_PATH": true,
	"DEFAULT_ACTION_PLUGIN_PATH": true, "DEFAULT_FILTER_PLUGIN_PATH": true, "DEFAULT_LOOKUP_PLUGIN_PATH": true, "DEFAULT_TEST_PLUGIN_PATH": true, "DEFAULT_GATHERING": true, "DEFAULT_STRATEGY": true, "DEFAULT_FORCE_HANDLERS": true,
	// The implicit fact gathering's arguments (settings.go, gatherDefaults).
	"DEFAULT_GATHER_SUBSET": true, "DEFAULT_GATHER_TIMEOUT": true, "DEFAULT_FACT_PATH": true,
	"DEFAULT_BECOME": true, "DEFAULT_BECOME_USER": true, "DEFAULT_BECOME_METHOD": true,
	"DEFAULT_BECOME_EXE": true, "DEFAULT_BECOME_FLAGS": true, "BECOME_ALLOW_SAME_USER": true, "DEFAULT_BECOME_ASK_PASS": true, "DEFAULT_ASK_PASS": true,
	"DEFAULT_VAULT_PASSWORD_FILE": true, "DEFAULT_VAULT_IDENTITY_LIST": true, "DEFAULT_ASK_VAULT_PASS": true,
	"DEFAULT_VAULT_ID_MATCH": true, "DEFAULT_VAULT_IDENTITY": true, "DEFAULT_HASH_BEHAVIOUR": true,
	"DEFAULT_JINJA2_NATIVE": true, "INVENTORY_ENABLED": true,
	// tender prints no deprecation warnings: off is what it does. The
	// implicit-localhost warning is play.go's (checkLimit).
	"DEPRECATION_WARNINGS": true, "LOCALHOST_WARNING": true, "RETRY_FILES_ENABLED": true, "RETRY_FILES_SAVE_PATH": true,
	// The fact cache (factcache.go): memory or jsonfile, others refused.
	"CACHE_PLUGIN": true, "CACHE_PLUGIN_CONNECTION": true, "CACHE_PLUGIN_PREFIX": true, "CACHE_PLUGIN_TIMEOUT": true,
	// Whether an inventory that parsed nothing is warned about (inventory.go).
	"INVENTORY_UNPARSED_WARNING": true,
	// What a key given twice in a YAML mapping does (settings.go).
	"DUPLICATE_YAML_DICT_KEY": true,
	// -m's default (adhoc.go); ansible-playbook does not read it.
	"DEFAULT_MODULE_NAME": true,
	// The json stdout callback (adhoc.go).
	"SHOW_CUSTOM_STATS": true, "DEFAULT_LOAD_CALLBACK_PLUGINS": true,
	// The callbacks tender has run, the others are warned about
	// (callbacks.go).
	"CALLBACKS_ENABLED": true,
	// Read by the default callback's option of the same name (callbacks.go).
	"DISPLAY_SKIPPED_HOSTS": true,
}

// appliedValues are the settings tender applies only with some values:
// with another, the setting is warned about as one it does not apply.
var appliedValues = map[string]func(v any, adhoc bool) bool{
	// The default output, Ansible's json and oneline callbacks, and for
	// tender play the minimal and yaml ones (the ansible command's own
	// output is minimal's); not dense and the others.
	"DEFAULT_STDOUT_CALLBACK": func(v any, adhoc bool) bool {
		switch v {
		case "default", "ansible.builtin.default", "json", "ansible.posix.json":
			return true
		case "oneline", "ansible.builtin.oneline":
			return true
		case "yaml", "community.general.yaml", "minimal", "ansible.builtin.minimal":
			return !adhoc
		}
		return false
	},
}
