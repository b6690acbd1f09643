package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/pybridge"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/pyplugins"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/pyaction"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport/ssh"
	"github.com/tender-sh/tender/vault"
)

// runFlags are the flags of `tender play` that matter when it runs.
func runFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.IntFlag{Name: "forks", Aliases: []string{"f"}, Value: provision.DefaultForks, Usage: "how many hosts work at once"},
		&cli.BoolFlag{Name: "check", Aliases: []string{"C"}, Usage: "change nothing; report what would change"},
		&cli.BoolFlag{Name: "diff", Aliases: []string{"D"}, Usage: "show what changes in files"},
		&cli.StringSliceFlag{Name: "extra-vars", Aliases: []string{"e"}, Usage: "variables: k=v, YAML/JSON, or @FILE (repeatable)"},
		&cli.StringFlag{Name: "junit", Usage: "also write a JUnit XML report to FILE, as Ansible's junit callback"},
		&cli.BoolFlag{Name: "version", Usage: "print tender's version and exit"},
		&cli.BoolFlag{Name: "json", Usage: "write one JSON event per line instead of text"},
		&cli.BoolFlag{Name: "no-progress", Usage: "no live progress bars on a terminal (also off with NO_COLOR or TERM=dumb)"},
		&cli.BoolFlag{Name: "live", Usage: "show each line a command or shell task prints as it prints it (HOST | line; an output event with --json); no_log tasks show none"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Count: new(int), Usage: "show every task's result (repeat for more)"},
		&cli.StringFlag{Name: "user", Aliases: []string{"u"}, Usage: "login user for hosts that name none"},
		&cli.StringSliceFlag{Name: "private-key", Aliases: []string{"key-file"}, Usage: "private key file to offer (repeatable)"},
		&cli.StringSliceFlag{Name: "known-hosts", Usage: "known_hosts file(s) to check host keys against"},
		&cli.StringFlag{Name: "host-key-checking", Value: "default", Usage: "strict, accept-new, or insecure (accept any key; warns); default follows ssh config"},
		&cli.StringFlag{Name: "ssh-config", Usage: "ssh config file (default ~/.ssh/config; 'none' for none)"},
	}, append(ansibleRunFlags(), historyFlags()...)...)
}

// runPlaybooks runs the playbooks on the inventory's hosts, under policy,
// with cfg as their configuration (loadConfig), and maps the recap to
// ansible-playbook's exit codes: 2 when a host failed, 4 when a host was
// unreachable.
func runPlaybooks(c *cli.Context, inv *inventory.Inventory, pbs []*playbooks.Playbook, policy *sandbox.Policy, cfg *config.Config) error {
	extra, err := extraVars(c.StringSlice("extra-vars"), vaultDecrypt(c))
	if err != nil {
		return &exitError{code: 5, err: err}
	}
	dialer, err := sshDialer(c, cfg)
	if err != nil {
		return &exitError{code: 5, err: err}
	}
	out := c.App.Writer
	// The text layout: ansible-playbook's, the ansible command's for
	// tender run, or Ansible's json callback's (textEvents, adhoc.go).
	text, err := textEvents(c, cfg)
	if err != nil {
		return err
	}
	aggs, err := enabledCallbacks(c, cfg, c.Command != nil && c.Command.Name == adhocName)
	if err != nil {
		return err
	}
	text = withCallbacks(text, aggs)
	// Warnings go to stderr, as ansible-playbook's do (but under live
	// progress, which draws there: through the display then).
	events := warningsTo(c.App.ErrWriter, cfg, text(out, colorOutput(out, cfg)))
	if events, err = retryFiles(cfg, out, c.App.ErrWriter, events); err != nil {
		return err
	}
	switch {
	case c.Bool("json"):
		events = report.JSON(out, version)
	case wantProgress(c):
		color := colorOutput(out, cfg)
		pg := terminalProgress(out, c.App.ErrWriter, func(w io.Writer) func(provision.Event) { return text(w, color) })
		defer pg.close()
		events = pg.event
	}
	// --junit FILE: a JUnit report too, as Ansible's junit callback
	// (junit.go); censored as the output is.
	events = junitEvents(c, events)
	events = censorEvents(c, events)
	if dialer.HostKeys == ssh.HostKeyInsecure {
		// On stderr, as ansible-playbook's warnings; through the events
		// with --json, so that it carries it too.
		why := "--host-key-checking=insecure"
		if !c.IsSet("host-key-checking") {
			why = "HOST_KEY_CHECKING=False, " + cfg.Origin("HOST_KEY_CHECKING")
		}
		msg := "host keys are not checked (" + why + "): anyone between you and the hosts can read and change everything"
		if c.Bool("json") {
			events(provision.Event{Kind: provision.Warning, Time: time.Now(), Msg: msg})
		} else {
			printWarning(c.App.ErrWriter, msg)
		}
	}
	nforks, err := forks(c, cfg)
	if err != nil {
		return err
	}
	defaults, err := playDefaults(c, cfg)
	if err != nil {
		return err
	}
	if dialer.Password, defaults.BecomePassword, err = loginPasswords(c, cfg); err != nil {
		return err
	}
	merge, err := hashMerge(cfg)
	if err != nil {
		return err
	}
	dupKeys, err := duplicateKeys(cfg)
	if err != nil {
		return err
	}
	native, err := settingBool(cfg, "DEFAULT_JINJA2_NATIVE")
	if err != nil {
		return err
	}
	cache, cacheCloser, err := factCache(c, cfg)
	if err != nil {
		return err
	}
	if cacheCloser != nil {
		defer cacheCloser.Close()
	}
	r := &provision.Runner{
		FactCache: cache, FlushCache: c.Bool("flush-cache"), LiveOutput: c.Bool("live"),
		HashMerge: merge, DuplicateKeys: dupKeys, Jinja2Native: native,
		Inventory: inv, Modules: moduleRegistry(), Connections: connections(dialer), Sandbox: policy, Decrypt: vaultDecrypt(c),
		Forks: nforks, Limit: c.String("limit"), Check: c.Bool("check"), Diff: c.Bool("diff"),
		Tags:      playbooks.TagFilter{Only: splitList(c.StringSlice("tags")), Skip: splitList(c.StringSlice("skip-tags"))},
		ExtraVars: extra, Events: events, Verbosity: c.Count("verbose"), Prompt: terminalPrompt(),
		Config: cfg, Defaults: defaults, StartAt: c.String("start-at-task"),
		InventorySources: sourcesVar(c, cfg),
	}
	if c.Bool("step") {
		r.Step = stepPrompt(out, stdin)
	}
	// The content's Python filters and tests run in one Python process,
	// started when a template first calls one.
	bridge := pybridge.New("")
	defer bridge.Close()
	r.Plugins = pyplugins.For(bridge, func() error { return policy.CheckLocal("Python filter, test and lookup plugins") },
		func(msg string) { printWarning(c.App.ErrWriter, msg) })
	actions := &pyaction.Runner{Allow: func() error { return policy.CheckLocal("Python action plugins") }}
	defer actions.Close()
	r.ActionPlugins = actions
	ctx, drain, stop := interrupts(c.Context, c.App.ErrWriter, "no new task starts; the running ones finish.")
	defer stop()
	r.Drain = drain
	rec := startHistory(c, c.Command.Name, historyPlaybooks(c, pbs), func(msg string) { printWarning(c.App.ErrWriter, msg) })
	if rec != nil {
		shown := r.Events
		r.Events = func(e provision.Event) {
			shown(e)
			rec.event(e)
		}
	}
	recap, err := r.RunAll(ctx, pbs...)
	rec.finish(recap, err)
	if errors.Is(err, provision.ErrInterrupted) || err != nil && ctx.Err() != nil {
		// ansible-playbook's status for a run the user interrupted.
		return &exitError{code: 99, err: errors.New("interrupted by the user")}
	}
	if errors.Is(err, errStepEnded) {
		// The recap is out; ansible-playbook exits 2, saying nothing more.
		return &exitError{code: 2, err: err, quiet: true}
	}
	var missed *provision.StartAtError
	if errors.As(err, &missed) {
		// Said after the recap, as ansible-playbook does; not a failure.
		fmt.Fprintf(c.App.ErrWriter, "[ERROR]: %v\n", missed)
		err = nil
	}
	var opt *provision.OptionsError
	if errors.As(err, &opt) {
		return &exitError{code: 5, err: err}
	}
	var pe *provision.PlayError
	if errors.As(err, &pe) && pe.Parser {
		return &exitError{code: 4, err: err}
	}
	if err != nil {
		return err
	}
	switch {
	case recap.Unreachable():
		return &exitError{code: 4, err: fmt.Errorf("some hosts were unreachable"), quiet: true}
	case recap.Failed():
		return &exitError{code: 2, err: fmt.Errorf("some hosts failed"), quiet: true}
	}
	return nil
}

// sshDialer is the SSH transport as the flags and Ansible's settings
// describe it: the login user and key (-u, --private-key,
// DEFAULT_REMOTE_USER, DEFAULT_PRIVATE_KEY_FILE), host key checking
// (--host-key-checking, else HOST_KEY_CHECKING=False turns it off), the
// connect timeout (-T, DEFAULT_TIMEOUT) and the login password (-k,
// --connection-password-file, DEFAULT_ASK_PASS).
func sshDialer(c *cli.Context, cfg *config.Config) (*ssh.Dialer, error) {
	d := &ssh.Dialer{User: c.String("user"), KeyFiles: c.StringSlice("private-key"),
		KnownHosts: c.StringSlice("known-hosts"), ConfigFile: c.String("ssh-config")}
	if d.User == "" {
		u, err := settingStr(cfg, "DEFAULT_REMOTE_USER")
		if err != nil {
			return nil, err
		}
		d.User = u
	}
	if len(d.KeyFiles) == 0 {
		k, err := settingStr(cfg, "DEFAULT_PRIVATE_KEY_FILE")
		if err != nil {
			return nil, err
		}
		if k != "" {
			d.KeyFiles = []string{k}
		}
	}
	switch c.String("host-key-checking") {
	case "default", "":
		v, set, err := setting(cfg, "HOST_KEY_CHECKING")
		if err != nil {
			return nil, err
		}
		if on, _ := v.(bool); set && !on {
			d.HostKeys = ssh.HostKeyInsecure
		}
	case "strict", "yes":
		d.HostKeys = ssh.HostKeyStrict
	case "accept-new":
		d.HostKeys = ssh.HostKeyAcceptNew
	case "insecure", "off", "no":
		d.HostKeys = ssh.HostKeyInsecure
	default:
		return nil, fmt.Errorf("--host-key-checking %q: want strict, accept-new or insecure", c.String("host-key-checking"))
	}
	timeout := c.Int("timeout")
	if !c.IsSet("timeout") {
		v, set, err := setting(cfg, "DEFAULT_TIMEOUT")
		if err != nil {
			return nil, err
		}
		if n, ok := v.(int); ok && set {
			timeout = n
		}
	}
	if timeout > 0 {
		d.ConnectTimeout = time.Duration(timeout) * time.Second
		d.HandshakeTimeout = max(ssh.DefaultHandshakeTimeout, d.ConnectTimeout)
	}
	for _, f := range []string{"sftp-extra-args", "scp-extra-args"} {
		if c.String(f) != "" {
			return nil, &exitError{code: 5, err: fmt.Errorf("--%s: tender speaks SFTP itself and runs no sftp or scp program, so it has no arguments to give one", f)}
		}
	}
	return d, nil
}

// extraVars reads -e values as ansible-playbook does: k=v pairs, a YAML or
// JSON document, or @FILE. Later values win.
func extraVars(values []string, decrypt yaml11.Decrypter) (map[string]any, error) {
	out := map[string]any{}
	for _, v := range values {
		v = strings.TrimSpace(v)
		var m map[string]any
		var err error
		switch {
		case strings.HasPrefix(v, "@"):
			var data []byte
			if data, err = vault.ReadFile(v[1:]); err == nil {
				dec := yaml11.NewDecoder()
				dec.Decrypt = decrypt
				m, err = dec.Vars(data, v[1:])
			}
		case strings.HasPrefix(v, "{") || strings.HasPrefix(v, "["):
			m, err = yaml11.Vars([]byte(v), "-e")
		default:
			m, err = playbooks.SplitKV(v)
		}
		if err != nil {
			return nil, fmt.Errorf("extra vars %q: %w", v, err)
		}
		for k, val := range m {
			out[k] = val
		}
	}
	return out, nil
}

// colorOutput reports whether output to w is coloured, as Ansible
// decides: ANSIBLE_FORCE_COLOR (force_color) colours whatever w is, and
// wins over ANSIBLE_NOCOLOR, NO_COLOR and nocolor, which turn it off;
// else a terminal is coloured.
func colorOutput(w any, cfg *config.Config) bool {
	if force, err := settingBool(cfg, "ANSIBLE_FORCE_COLOR"); err == nil && force {
		return true
	}
	if no, err := settingBool(cfg, "ANSIBLE_NOCOLOR"); err != nil || no {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// printWarning prints msg on w as Ansible's display prints a warning: wrapped to
// its width (report.Warning).
func printWarning(w io.Writer, msg string) {
	fmt.Fprintln(w, report.Warning(msg, displayColumns()))
}

// displayColumns is the width Ansible's display wraps warnings to: the
// terminal's less one, at least 79, when stdout is a terminal; else 79.
func displayColumns() int {
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
		return max(report.DefaultColumns, w-1)
	}
	return report.DefaultColumns
}

// warningsTo prints warning events on w, as ansible-playbook prints its
// warnings on stderr, and passes every other event to next.
func warningsTo(w io.Writer, cfg *config.Config, next func(provision.Event)) func(provision.Event) {
	color := colorOutput(w, cfg)
	return func(e provision.Event) {
		if e.Kind != provision.Warning {
			next(e)
			return
		}
		line := report.Warning(e.Msg, displayColumns())
		if color {
			// Each line painted, as Ansible's display paints them.
			line = "\x1b[1;35m" + strings.ReplaceAll(line, "\n", "\x1b[0m\n\x1b[1;35m") + "\x1b[0m"
		}
		fmt.Fprintln(w, line)
	}
}

// moduleRegistry makes the registry of the modules every command runs,
// documents and checks playbooks against: tender's built-in modules. A
// test replaces it to prove a module registered elsewhere needs nothing
// else to work.
var moduleRegistry = builtin.Registry
