package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/provision"
)

// setting returns the value of Ansible setting name in cfg and whether it
// was set (by ANSIBLE_* or ansible.cfg) rather than left at its default.
func setting(cfg *config.Config, name string) (any, bool, error) {
	v, err := cfg.Setting(name)
	if err != nil {
		return nil, false, &exitError{code: 5, err: err}
	}
	o := cfg.Origin(name)
	return v, o != "" && o != "default", nil
}

// forks is -f, else DEFAULT_FORKS when ANSIBLE_FORKS or ansible.cfg set
// it, else tender's own default (provision.DefaultForks, more than
// Ansible's 5: a fork is a goroutine here, not a process).
func forks(c *cli.Context, cfg *config.Config) (int, error) {
	if c.IsSet("forks") {
		return c.Int("forks"), nil
	}
	v, set, err := setting(cfg, "DEFAULT_FORKS")
	if err != nil || !set {
		return provision.DefaultForks, err
	}
	n, ok := v.(int)
	if !ok || n < 1 {
		return 0, &exitError{code: 5, err: fmt.Errorf("DEFAULT_FORKS (%s): %v is not a number of forks", cfg.Origin("DEFAULT_FORKS"), v)}
	}
	return n, nil
}

// settingStr is a string setting's value when ANSIBLE_* or ansible.cfg set
// it ("" otherwise).
func settingStr(cfg *config.Config, name string) (string, error) {
	v, set, err := setting(cfg, name)
	if err != nil || !set || v == nil {
		return "", err
	}
	return fmt.Sprint(v), nil
}

// settingBool is a boolean setting's value, default included.
func settingBool(cfg *config.Config, name string) (bool, error) {
	v, _, err := setting(cfg, name)
	b, _ := v.(bool)
	return b, err
}

// flagOr is a string flag's value when given, else the setting's.
func flagOr(c *cli.Context, flag string, cfg *config.Config, name string) (string, error) {
	if c.IsSet(flag) {
		return c.String(flag), nil
	}
	return settingStr(cfg, name)
}

// playDefaults are what every play starts from: -u, -c, -b,
// --become-user, --become-method and --force-handlers, else the settings
// they stand for, and the settings of the implicit fact gathering, as
// ansible-playbook takes them.
func playDefaults(c *cli.Context, cfg *config.Config) (provision.PlayDefaults, error) {
	var d provision.PlayDefaults
	var err error
	get := func(dst *string, flag, name string) {
		if err == nil {
			*dst, err = flagOr(c, flag, cfg, name)
		}
	}
	get(&d.RemoteUser, "user", "DEFAULT_REMOTE_USER")
	get(&d.Connection, "connection", "DEFAULT_TRANSPORT")
	get(&d.BecomeUser, "become-user", "DEFAULT_BECOME_USER")
	get(&d.BecomeMethod, "become-method", "DEFAULT_BECOME_METHOD")
	get(&d.BecomeExe, "", "DEFAULT_BECOME_EXE")
	get(&d.BecomeFlags, "", "DEFAULT_BECOME_FLAGS")
	get(&d.Gathering, "", "DEFAULT_GATHERING")
	get(&d.Strategy, "", "DEFAULT_STRATEGY")
	if err != nil {
		return d, err
	}
	if port, set, err := setting(cfg, "DEFAULT_REMOTE_PORT"); err != nil {
		return d, err
	} else if set && port != nil {
		d.Port = fmt.Sprint(port)
	}
	switch d.BecomeMethod {
	case "", "sudo", "su", "doas":
	default:
		return d, &exitError{code: 5, err: fmt.Errorf("become method %q: tender becomes with sudo, su or doas", d.BecomeMethod)}
	}
	if d.Become = c.Bool("become"); !d.Become {
		if d.Become, err = settingBool(cfg, "DEFAULT_BECOME"); err != nil {
			return d, err
		}
	}
	if d.ForceHandlers = c.Bool("force-handlers"); !d.ForceHandlers {
		if d.ForceHandlers, err = settingBool(cfg, "DEFAULT_FORCE_HANDLERS"); err != nil {
			return d, err
		}
	}
	return d, gatherDefaults(&d, cfg)
}

// gatherDefaults sets the implicit fact gathering's arguments from
// DEFAULT_GATHER_SUBSET, DEFAULT_GATHER_TIMEOUT and DEFAULT_FACT_PATH,
// where ansible.cfg or the environment set them.
func gatherDefaults(d *provision.PlayDefaults, cfg *config.Config) error {
	if v, set, err := setting(cfg, "DEFAULT_GATHER_SUBSET"); err != nil {
		return err
	} else if l, ok := v.([]any); set && ok {
		d.GatherSubset = l
	}
	if v, set, err := setting(cfg, "DEFAULT_GATHER_TIMEOUT"); err != nil {
		return err
	} else if n, ok := v.(int); set && ok {
		d.GatherTimeout = &n
	}
	var err error
	d.FactPath, err = settingStr(cfg, "DEFAULT_FACT_PATH")
	return err
}

// contentPaths are the roles path (DEFAULT_ROLES_PATH) and the module
// path (-M first, then DEFAULT_MODULE_PATH) that playbooks load with.
func contentPaths(c *cli.Context, cfg *config.Config) (roles, modules []string, err error) {
	for _, p := range c.StringSlice("module-path") {
		modules = append(modules, filepath.SplitList(p)...)
	}
	for _, x := range []struct {
		name string
		dst  *[]string
	}{{"DEFAULT_ROLES_PATH", &roles}, {"DEFAULT_MODULE_PATH", &modules}} {
		v, _, err := setting(cfg, x.name)
		if err != nil {
			return nil, nil, err
		}
		list, _ := v.([]any)
		for _, p := range list {
			*x.dst = append(*x.dst, fmt.Sprint(p))
		}
	}
	return roles, modules, nil
}

// collectionPaths are COLLECTIONS_PATHS, where installed collections are
// looked for, and COLLECTIONS_SCAN_SYS_PATH, whether the controller
// Python's sys.path is looked in too.
func collectionPaths(cfg *config.Config) (paths []string, scanSys bool, err error) {
	v, _, err := setting(cfg, "COLLECTIONS_PATHS")
	if err != nil {
		return nil, false, err
	}
	list, _ := v.([]any)
	for _, p := range list {
		paths = append(paths, fmt.Sprint(p))
	}
	scanSys, err = settingBool(cfg, "COLLECTIONS_SCAN_SYS_PATH")
	return paths, scanSys, err
}

// pluginPaths are the configured directories of Python plugins by kind
// (DEFAULT_ACTION_PLUGIN_PATH, …_FILTER_…, …_LOOKUP_…, …_TEST_…).
func pluginPaths(cfg *config.Config) (map[string][]string, error) {
	out := map[string][]string{}
	for kind, name := range map[string]string{"action": "DEFAULT_ACTION_PLUGIN_PATH", "filter": "DEFAULT_FILTER_PLUGIN_PATH",
		"lookup": "DEFAULT_LOOKUP_PLUGIN_PATH", "test": "DEFAULT_TEST_PLUGIN_PATH"} {
		v, _, err := setting(cfg, name)
		if err != nil {
			return nil, err
		}
		list, _ := v.([]any)
		for _, p := range list {
			out[kind] = append(out[kind], fmt.Sprint(p))
		}
	}
	return out, nil
}

// hashMerge reports whether DEFAULT_HASH_BEHAVIOUR is merge (Ansible's
// hash_behaviour: dict variables merge across precedence levels); cfg
// nil reads the configuration.
func hashMerge(cfg *config.Config) (bool, error) {
	if cfg == nil {
		var err error
		if cfg, err = config.Load(config.Options{}); err != nil {
			return false, &exitError{code: 5, err: err}
		}
	}
	v, err := settingStr(cfg, "DEFAULT_HASH_BEHAVIOUR")
	return v == "merge", err
}

// duplicateKeys is DUPLICATE_YAML_DICT_KEY: what a key given twice in a
// YAML mapping does (warn, error or ignore).
func duplicateKeys(cfg *config.Config) (yaml11.DuplicatePolicy, error) {
	v, _, err := setting(cfg, "DUPLICATE_YAML_DICT_KEY")
	if err != nil {
		return 0, err
	}
	s, _ := v.(string)
	p, err := yaml11.ParseDuplicatePolicy(s)
	if err != nil {
		return 0, &exitError{code: 5, err: fmt.Errorf("DUPLICATE_YAML_DICT_KEY (%s): %w", cfg.Origin("DUPLICATE_YAML_DICT_KEY"), err)}
	}
	return p, nil
}
