package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
)

// aggregate is a callback of Ansible's callbacks_enabled that tender
// has: it makes the handler that prints what the callback adds to the
// output on w.
type aggregate func(w io.Writer) func(provision.Event)

// jsonIndent is ansible.posix.json's json_indent, as its documentation
// gives it.
var jsonIndent = config.Setting{Name: "json_indent", Type: "integer", Default: 4, Env: []string{"ANSIBLE_JSON_INDENT"},
	Ini: []config.IniEntry{{Section: "defaults", Key: "json_indent"}}}

// minimalOptions warns about the options of Ansible's minimal callback
// that tender does not apply: a result_format other than json, and
// pretty_results when set.
func minimalOptions(c *cli.Context, cfg *config.Config) {
	var ignored []string
	if v, _ := cfg.PluginOption("callback", "minimal", "result_format", nil); v != nil && v != "json" {
		ignored = append(ignored, "result_format")
	}
	if v, _ := cfg.PluginOption("callback", "minimal", "pretty_results", nil); v != nil {
		ignored = append(ignored, "pretty_results")
	}
	if len(ignored) > 0 {
		printWarning(c.App.ErrWriter, "tender does not apply these options of the minimal callback yet: "+strings.Join(ignored, ", "))
	}
}

// Options of ansible.posix.profile_tasks, as its documentation gives
// them.
var (
	profileLimit = config.Setting{Name: "output_limit", Default: "20", Env: []string{"PROFILE_TASKS_TASK_OUTPUT_LIMIT"},
		Ini: []config.IniEntry{{Section: "callback_profile_tasks", Key: "task_output_limit"}}}
	profileSort = config.Setting{Name: "sort_order", Default: "descending", Choices: []any{"descending", "ascending", "none"},
		Env: []string{"PROFILE_TASKS_SORT_ORDER"}, Ini: []config.IniEntry{{Section: "callback_profile_tasks", Key: "sort_order"}}}
)

// enabledCallbacks reads CALLBACKS_ENABLED (callbacks_enabled, the old
// callback_whitelist, ANSIBLE_CALLBACKS_ENABLED) as ansible-playbook
// does, and for tender run only with bin_ansible_callbacks, as the
// ansible command. The callbacks tender has (ansible.posix's
// profile_tasks and timer, by their short or full names) print in the
// order they are listed; another is skipped with Ansible's warning.
func enabledCallbacks(c *cli.Context, cfg *config.Config, adhoc bool) ([]aggregate, error) {
	if cfg == nil {
		return nil, nil
	}
	if adhoc {
		load, _ := cfg.Setting("DEFAULT_LOAD_CALLBACK_PLUGINS")
		if b, _ := load.(bool); !b {
			return nil, nil
		}
	}
	v, err := cfg.Setting("CALLBACKS_ENABLED")
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	names, _ := v.([]any)
	var out []aggregate
	seen := map[string]bool{}
	for _, n := range names {
		name := fmt.Sprint(n)
		short := fqcn.Short(name)
		if p, ok := cutPosix(name); ok {
			short = p
		}
		if seen[short] {
			continue
		}
		seen[short] = true
		switch short {
		case "profile_tasks":
			o, err := profileOptions(c, cfg)
			if err != nil {
				return nil, err
			}
			out = append(out, func(w io.Writer) func(provision.Event) { return report.ProfileTasks(w, o) })
		case "timer":
			out = append(out, func(w io.Writer) func(provision.Event) { return report.Timer(w, nil) })
		case "junit":
			out = append(out, junitCallback(c))
		default:
			printWarning(c.App.ErrWriter, fmt.Sprintf("Skipping callback plugin '%s', unable to load: tender has the callbacks profile_tasks, timer and junit", name))
		}
	}
	return out, nil
}

// junitOptions are the junit callback's settings besides its output
// directory, which tender does not apply: set, they are warned about.
var junitOptions = []string{"JUNIT_TASK_CLASS", "JUNIT_TASK_RELATIVE_PATH", "JUNIT_FAIL_ON_CHANGE", "JUNIT_FAIL_ON_IGNORE",
	"JUNIT_INCLUDE_SETUP_TASKS_IN_REPORT", "JUNIT_HIDE_TASK_ARGUMENTS", "JUNIT_TEST_CASE_PREFIX", "JUNIT_REPLACE_OUT_OF_TREE_PATH"}

// junitCallback is Ansible's junit callback: the JUnit report (as
// --junit writes it) written when the run ends to JUNIT_OUTPUT_DIR
// (~/.ansible.log by default, made when missing) as
// PLAYBOOK-SECONDS.xml, PLAYBOOK the last playbook's name without its
// extension and SECONDS Python's time.time().
func junitCallback(c *cli.Context) aggregate {
	var set []string
	for _, k := range junitOptions {
		if _, ok := os.LookupEnv(k); ok {
			set = append(set, k)
		}
	}
	if len(set) > 0 {
		printWarning(c.App.ErrWriter, "tender's junit callback does not apply these settings yet: "+strings.Join(set, ", "))
	}
	dir := os.Getenv("JUNIT_OUTPUT_DIR")
	if _, ok := os.LookupEnv("JUNIT_OUTPUT_DIR"); !ok {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".ansible.log")
	}
	return func(io.Writer) func(provision.Event) {
		var buf bytes.Buffer
		junit := report.JUnit(&buf)
		name := "playbook"
		return func(e provision.Event) {
			if e.Kind == provision.PlaybookStart {
				name = strings.TrimSuffix(filepath.Base(e.Path), filepath.Ext(e.Path))
			}
			junit(e)
			if e.Kind != provision.RunEnd {
				return
			}
			now := float64(time.Now().UnixMicro()) / 1e6
			file := filepath.Join(dir, name+"-"+strconv.FormatFloat(now, 'f', -1, 64)+".xml")
			err := os.MkdirAll(dir, 0o755)
			if err == nil {
				err = os.WriteFile(file, buf.Bytes(), 0o644)
			}
			if err != nil {
				fmt.Fprintf(c.App.ErrWriter, "ERROR: junit callback: %v\n", err)
			}
		}
	}
}

// cutPosix returns the short name of an ansible.posix callback.
func cutPosix(name string) (string, bool) {
	const prefix = "ansible.posix."
	if len(name) > len(prefix) && name[:len(prefix)] == prefix {
		return name[len(prefix):], true
	}
	return "", false
}

// profileOptions reads profile_tasks' options.
func profileOptions(c *cli.Context, cfg *config.Config) (report.ProfileOptions, error) {
	o := report.ProfileOptions{Verbosity: c.Count("verbose"), Limit: 20}
	limit, err := cfg.OptionOf("callback", "profile_tasks", profileLimit)
	if err != nil {
		return o, &exitError{code: 5, err: err}
	}
	switch s := fmt.Sprint(limit); s {
	case "all":
		o.Limit = -1
	default:
		n, err := pyfmt.Int(s)
		if err != nil {
			return o, &exitError{code: 1, err: fmt.Errorf("profile_tasks: output_limit: %v", err)}
		}
		o.Limit = n
	}
	sortOrder, err := cfg.OptionOf("callback", "profile_tasks", profileSort)
	if err != nil {
		return o, &exitError{code: 5, err: err}
	}
	o.Sort = fmt.Sprint(sortOrder)
	return o, nil
}

// withCallbacks makes each handler text returns pass every event on to
// the enabled callbacks after the output's own handler, as Ansible calls
// its stdout callback before the others.
func withCallbacks(text func(io.Writer, bool) func(provision.Event), aggs []aggregate) func(io.Writer, bool) func(provision.Event) {
	if len(aggs) == 0 {
		return text
	}
	return func(w io.Writer, color bool) func(provision.Event) {
		hs := []func(provision.Event){text(w, color)}
		for _, a := range aggs {
			hs = append(hs, a(w))
		}
		return func(e provision.Event) {
			for _, h := range hs {
				h(e)
			}
		}
	}
}

// defaultCallbackOptions reads the options of Ansible's default stdout
// callback (the yaml one shares them): display_skipped_hosts,
// display_ok_hosts, show_task_path_on_failure, display_failed_stderr,
// check_mode_markers and show_custom_stats are applied; show_per_host_start and a
// result_format or pretty_results that is set are warned about, as
// tender does not apply them.
func defaultCallbackOptions(c *cli.Context, cfg *config.Config) report.TextOptions {
	var o report.TextOptions
	if cfg == nil {
		return o
	}
	flag := func(name string) bool {
		v, err := cfg.PluginOption("callback", "default", name, nil)
		if err != nil {
			printWarning(c.App.ErrWriter, err.Error())
			return false
		}
		b, _ := v.(bool)
		return b
	}
	o.HideSkipped = !flag("display_skipped_hosts")
	o.HideOK = !flag("display_ok_hosts")
	o.TaskPathOnFailure = flag("show_task_path_on_failure")
	if flag("display_failed_stderr") {
		o.FailedTo = c.App.ErrWriter
	}
	o.CheckModeMarkers = flag("check_mode_markers")
	o.ShowCustomStats = flag("show_custom_stats")
	var ignored []string
	if flag("show_per_host_start") {
		ignored = append(ignored, "show_per_host_start")
	}
	if v, _ := cfg.PluginOption("callback", "default", "result_format", nil); v != nil && v != "json" {
		ignored = append(ignored, "result_format")
	}
	if v, _ := cfg.PluginOption("callback", "default", "pretty_results", nil); v != nil {
		ignored = append(ignored, "pretty_results")
	}
	if len(ignored) > 0 {
		printWarning(c.App.ErrWriter, "tender does not apply these options of the default callback yet: "+strings.Join(ignored, ", "))
	}
	return o
}
