package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/hostpattern"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/sandbox"
)

// adhocName is the command that runs one module, as Ansible's `ansible`.
const adhocName = "run"

// adhocPlaybook is the name of the one-task playbook an ad-hoc run makes,
// as Ansible names it.
const adhocPlaybook = "__adhoc_playbook__"

func adhocCommand() *cli.Command {
	return &cli.Command{
		Name:                   adhocName,
		UseShortOptionHandling: true,
		Usage:                  "run one module on the hosts of a pattern (as ansible)",
		ArgsUsage:              "PATTERN",
		Flags: append([]cli.Flag{
			inventoryFlag(false),
			&cli.StringFlag{Name: "module-name", Aliases: []string{"m"}, Usage: "the module to run (default: ansible.cfg's [defaults] module_name, else command)"},
			&cli.StringFlag{Name: "args", Aliases: []string{"a"}, Usage: "the module's arguments: k=v words, a free-form command, or a JSON object"},
			&cli.BoolFlag{Name: "one-line", Aliases: []string{"o"}, Usage: "one line per host"},
			&cli.IntFlag{Name: "background", Aliases: []string{"B"}, Usage: "run asynchronously, failing after SECONDS"},
			&cli.IntFlag{Name: "poll", Aliases: []string{"P"}, Value: 15, Usage: "poll a -B job every SECONDS (0: start it and do not wait)"},
			&cli.IntFlag{Name: "task-timeout", Usage: "fail the task after SECONDS"},
			&cli.BoolFlag{Name: "list-hosts", Usage: "list the hosts the pattern matches; run nothing"},
			&cli.StringFlag{Name: "limit", Aliases: []string{"l"}, Usage: "further limit the hosts to a pattern"},
			&cli.StringFlag{Name: "playbook-dir", Usage: "the directory relative paths, group_vars/ and host_vars/ are found in (default: the current one)"},
			&cli.StringFlag{Name: "tree", Aliases: []string{"t"}, Usage: "not supported: use --json"},
			sandboxFlag(),
		}, append(runFlags(), vaultFlags()...)...),
		Action: adhocAction,
	}
}

func adhocAction(c *cli.Context) error {
	if c.Bool("version") {
		_, err := fmt.Fprintf(c.App.Writer, "tender %s\n", version)
		return err
	}
	if c.NArg() != 1 {
		return usageError(c, "give one host PATTERN")
	}
	if c.IsSet("tree") {
		return usageError(c, "--tree is not supported: --json writes every host's result as one JSON event per line")
	}
	if c.IsSet("module-path") {
		// The one-task play is read from memory, where a module file
		// cannot be looked up.
		return usageError(c, "-M/--module-path is not supported by tender run yet: use tender play")
	}
	pattern := c.Args().First()
	cfg, err := loadConfig(c)
	if err != nil {
		return err
	}
	if _, err := vaultKeyring(c, cfg); err != nil {
		return err
	}
	inv, err := loadInventory(c, cfg)
	if err != nil {
		return err
	}
	if c.Bool("list-hosts") {
		return adhocListHosts(c, inv, pattern)
	}
	module, args := c.String("module-name"), c.String("args")
	if !c.IsSet("module-name") {
		// -m's default is DEFAULT_MODULE_NAME (command unless ansible.cfg
		// says otherwise), as the ansible command's.
		v, _, err := setting(cfg, "DEFAULT_MODULE_NAME")
		if err != nil {
			return err
		}
		module = fmt.Sprint(v)
	}
	// The modules whose arguments are a command line are those the
	// ansible command refuses to run without -a (Ansible's
	// MODULE_REQUIRE_ARGS).
	if d, _ := moduleRegistry().Def(module); d.FreeForm && args == "" {
		msg := "no argument passed to " + module + " module"
		if strings.HasSuffix(pattern, ".yml") {
			msg += " (did you mean tender play?)"
		}
		return &exitError{code: 5, err: errors.New(msg)}
	}
	if strings.HasPrefix(module, "import_") || strings.HasSuffix(module, ".import_playbook") {
		return &exitError{code: 5, err: fmt.Errorf("%q is not a valid action for ad-hoc commands", module)}
	}
	hosts, err := adhocHosts(c, inv, pattern)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	if len(hosts) == 0 {
		printWarning(c.App.ErrWriter, "No hosts matched, nothing to do")
		return nil
	}
	policy, err := sandboxPolicy(c)
	if err != nil {
		return err
	}
	pb, err := adhocPlay(c, cfg, policy, pattern, module, args)
	if err != nil {
		return &exitError{code: 5, err: err}
	}
	return runPlaybooks(c, inv, []*playbooks.Playbook{pb}, policy, cfg)
}

// adhocHosts selects the ad hoc command's hosts. As the ansible command,
// a subscript of its pattern that picks no host (web[9]) is first
// warned about as no hosts matched, then (unless only listing) is the
// run's error; one of --limit is the error at once.
func adhocHosts(c *cli.Context, inv *inventory.Inventory, pattern string) ([]*inventory.Host, error) {
	hosts, err := playHosts(inv, []string{pattern}, c.String("limit"))
	var subscript *hostpattern.SubscriptError
	if errors.As(err, &subscript) && c.String("limit") == "" {
		printWarning(c.App.ErrWriter, "No hosts matched, nothing to do")
	}
	return hosts, err
}

// adhocListHosts prints the hosts as `ansible --list-hosts` does.
func adhocListHosts(c *cli.Context, inv *inventory.Inventory, pattern string) error {
	hosts, err := adhocHosts(c, inv, pattern)
	var subscript *hostpattern.SubscriptError
	warned := errors.As(err, &subscript) && c.String("limit") == ""
	if warned {
		hosts, err = nil, nil // ansible lists no hosts
	}
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	if len(hosts) == 0 && !warned {
		printWarning(c.App.ErrWriter, "No hosts matched, nothing to do")
	}
	fmt.Fprintf(c.App.Writer, "  hosts (%d):\n", len(hosts))
	for _, h := range hosts {
		fmt.Fprintf(c.App.Writer, "    %s\n", h.Name)
	}
	return nil
}

// adhocPlay makes the one-task play the ansible command runs: hosts:
// pattern, no facts, the module with its arguments, async when -B asks.
// It is read by playbooks.Load as any playbook is, so the arguments are
// checked and templated as a task's.
func adhocPlay(c *cli.Context, cfg *config.Config, policy *sandbox.Policy, pattern, module, args string) (*playbooks.Playbook, error) {
	task := map[string]any{"action": module}
	if m := jsonArgs(args); m != nil {
		task["args"] = m
	} else if args != "" {
		task["action"] = module + " " + args
	}
	if b := c.Int("background"); b > 0 {
		task["async"], task["poll"] = b, c.Int("poll")
	}
	if t := c.Int("task-timeout"); t > 0 {
		task["timeout"] = t
	}
	play := []any{map[string]any{"name": "Ansible Ad-Hoc", "hosts": pattern, "gather_facts": false, "tasks": []any{task}}}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(play); err != nil {
		return nil, err
	}
	// JSON is YAML: the loader reads it from memory, nothing is written.
	fsys := oneFile{name: adhocPlaybook, data: buf.Bytes()}
	// Collections are found as for a playbook, those beside it in
	// --playbook-dir's collections directory, as the ansible command's.
	collPaths, scanSys, err := collectionPaths(cfg)
	if err != nil {
		return nil, err
	}
	if d := c.String("playbook-dir"); d != "" {
		collPaths = append([]string{filepath.Join(d, "collections")}, collPaths...)
	}
	pb, err := playbooks.Load(adhocPlaybook, playbooks.Options{Modules: moduleRegistry(), FS: fsys, Sandbox: policy,
		CollectionsPaths: collPaths, ScanSysPath: scanSys})
	if err != nil {
		// The positions are in the JSON made above, which no one wrote:
		// the messages alone say it.
		var list playbooks.ErrorList
		if errors.As(err, &list) {
			msgs := make([]string, len(list))
			for i, e := range list {
				msgs[i] = e.Msg
			}
			err = errors.New(strings.Join(msgs, "; "))
		}
		return nil, fmt.Errorf("-m %s -a %q: %w", module, args, err)
	}
	// Relative paths resolve against the playbook directory, as for
	// Ansible's ad-hoc runs: --playbook-dir or the current one.
	dir := c.String("playbook-dir")
	if dir == "" {
		dir = "."
	}
	pb.Path, pb.Dir = filepath.Join(dir, adhocPlaybook), dir
	// Nobody wrote this play: it has no position, as Ansible's ad-hoc
	// play has no path.
	for _, p := range pb.Plays {
		p.Pos = playbooks.Pos{}
		for _, t := range p.Tasks {
			t.Pos = playbooks.Pos{}
		}
	}
	return pb, nil
}

// jsonArgs decodes -a when it is a JSON object, as the ansible command
// takes it; nil when it is not one (the words are then k=v).
func jsonArgs(s string) map[string]any {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil || len(m) == 0 {
		return nil
	}
	return m
}

// textEvents is the text output of a run: ansible-playbook's for tender
// play, the ansible command's for tender run (-o: one line per host);
// Ansible's json callback's document for either when the configuration
// asks for it (ANSIBLE_STDOUT_CALLBACK=json, stdout_callback = json in
// ansible.cfg; for tender run only with bin_ansible_callbacks, as the
// ansible command).
func textEvents(c *cli.Context, cfg *config.Config) (func(io.Writer, bool) func(provision.Event), error) {
	adhoc := c.Command != nil && c.Command.Name == adhocName
	if stdoutCallback(cfg, adhoc) == "json" {
		opts := report.AnsibleJSONOptions{Indent: 4, Warnings: c.App.ErrWriter}
		if v, err := cfg.Setting("SHOW_CUSTOM_STATS"); err == nil {
			opts.ShowCustomStats, _ = v.(bool)
		}
		indent, err := cfg.OptionOf("callback", "json", jsonIndent)
		if err != nil {
			return nil, &exitError{code: 5, err: err}
		}
		opts.Indent, _ = indent.(int)
		return func(w io.Writer, _ bool) func(provision.Event) { return report.AnsibleJSON(w, opts) }, nil
	}
	if !adhoc {
		v := c.Count("verbose")
		switch stdoutCallback(cfg, adhoc) {
		case "yaml", "":
			o := defaultCallbackOptions(c, cfg)
			o.Verbosity, o.YAML = v, stdoutCallback(cfg, adhoc) == "yaml"
			return func(w io.Writer, color bool) func(provision.Event) {
				o := o
				o.Color = color
				return report.TextWith(w, o)
			}, nil
		case "minimal", "oneline":
			one := stdoutCallback(cfg, adhoc) == "oneline"
			if !one {
				minimalOptions(c, cfg)
			}
			return func(w io.Writer, color bool) func(provision.Event) {
				return report.AdHoc(w, report.AdHocOptions{OneLine: one, Color: color, Verbosity: v, Warnings: c.App.ErrWriter})
			}, nil
		}
	}
	opts := report.AdHocOptions{OneLine: c.Bool("one-line") || stdoutCallback(cfg, adhoc) == "oneline",
		Verbosity: c.Count("verbose"), Warnings: c.App.ErrWriter}
	return func(w io.Writer, color bool) func(provision.Event) {
		o := opts
		o.Color = color
		return report.AdHoc(w, o)
	}, nil
}

// stdoutCallback is the stdout callback the configuration names, "json"
// for Ansible's (ansible.posix.json), "yaml" for community.general's
// (tender play only), "" for the default. The ansible command heeds it
// only with bin_ansible_callbacks, and not with -o.
func stdoutCallback(cfg *config.Config, adhoc bool) string {
	if cfg == nil {
		return ""
	}
	if adhoc {
		load, _ := cfg.Setting("DEFAULT_LOAD_CALLBACK_PLUGINS")
		if b, _ := load.(bool); !b {
			return ""
		}
	}
	v, _ := cfg.Setting("DEFAULT_STDOUT_CALLBACK")
	switch v {
	case "json", "ansible.posix.json":
		return "json"
	case "oneline", "ansible.builtin.oneline":
		return "oneline" // the ansible command's -o
	case "minimal", "ansible.builtin.minimal":
		if !adhoc {
			return "minimal" // the ansible command's own output
		}
	case "yaml", "community.general.yaml":
		if !adhoc {
			return "yaml"
		}
	}
	return ""
}

// oneFile is a read-only file system holding one file: the ad-hoc play.
type oneFile struct {
	name string
	data []byte
}

// Open opens the file; any other name does not exist.
func (o oneFile) Open(name string) (fs.File, error) {
	if name != o.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{Reader: bytes.NewReader(o.data), o: o}, nil
}

type memFile struct {
	*bytes.Reader
	o oneFile
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Name() string               { return f.o.name }
func (f *memFile) Size() int64                { return int64(len(f.o.data)) }
func (f *memFile) Mode() fs.FileMode          { return 0o444 }
func (f *memFile) ModTime() time.Time         { return time.Time{} }
func (f *memFile) IsDir() bool                { return false }
func (f *memFile) Sys() any                   { return nil }
