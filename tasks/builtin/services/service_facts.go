package services

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// serviceFactsModule returns the state of the host's services as the fact
// services, as ansible-core 2.14's service_facts does on Linux: SysV init
// scripts (service --status-all), upstart, RedHat's chkconfig, OpenRC
// (rc-status and rc-update) and, when PID 1 is systemd, systemd's units
// and unit files, each read and parsed as Ansible's collectors read and
// parse them. One round trip. (Ansible's AIX and OpenBSD collectors find
// nothing on Linux; tender has neither.)
type serviceFactsModule struct {
	// Tests change where the script looks: the file naming PID 1 (""
	// for /proc/1/comm) and the directories searched for systemctl
	// before PATH ("" for Ansible's /usr/bin and /usr/local/bin).
	comm, optDirs string
}

var _ tasks.Module = serviceFactsModule{}

var serviceFactsArgs = &tasks.Spec{Module: "service_facts"}

// Spec is service_facts' argument specification: it takes none.
func (serviceFactsModule) Spec() *tasks.Spec { return serviceFactsArgs }

// systemdBadStates are the list-units words that make a unit's status,
// in the order they are looked for.
var systemdBadStates = []string{"not-found", "masked", "failed"}

var (
	sysvStatusLine = regexp.MustCompile(`(?m)^\s*\[ (\+|\-) \]\s+(.+)$`)
	upstartLine    = regexp.MustCompile(`^\s?(.*)\s(\w+)\/(\w+)(\,\sprocess\s([0-9]+))?\s*$`)
)

// Run gathers the services.
func (m serviceFactsModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	if _, err := serviceFactsArgs.Decode(args); err != nil {
		return tasks.Result{}, err
	}
	out, err := shared.Run(ctx, env, m.script(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return serviceFactsResult(out), nil
}

// script is serviceFactsScript looking at the PID 1 file and systemctl
// directories the module names, else at the host's usual ones.
func (m serviceFactsModule) script() string {
	comm := m.comm
	if comm == "" {
		comm = "/proc/1/comm"
	}
	opt := m.optDirs
	if opt == "" {
		opt = "/usr/bin:/usr/local/bin"
	}
	return "_t_comm=" + shared.Q(comm) + "\n_t_optdirs=" + shared.Q(opt) + "\n" + serviceFactsScript
}

// serviceFactsResult turns the script's output into the task's result:
// the services fact, or a skip when no collector found any.
func serviceFactsResult(out transport.Result) tasks.Result {
	v, b := shared.ParseBlobs(out.Stdout)
	if v["done"] != "1" {
		return shared.Fail(shared.ScriptError(out))
	}
	services, warnings := serviceFacts(v, b)
	if len(services) == 0 {
		return tasks.Result{Skipped: true, Warnings: warnings, Data: map[string]any{},
			Msg: "Failed to find any services. This can be due to privileges or some other configuration issue."}
	}
	return tasks.Result{Warnings: warnings, Data: map[string]any{"ansible_facts": map[string]any{"services": services}}}
}

// serviceFacts parses what serviceFactsScript printed into the services
// map and the warnings Ansible's collectors give.
func serviceFacts(v shared.Verdict, b map[string]string) (map[string]any, []string) {
	c := &serviceCollector{v: v, b: b, services: map[string]any{}}
	if rc, ok := v["sysv_rc"]; ok && !(rc == "4" && v["initd"] != "1") {
		c.sysv(rc)
	}
	if rc, ok := v["upstart_rc"]; ok {
		c.upstart(rc)
	}
	c.chkconfig()
	if st, ok := b["openrc_status"]; ok {
		c.openrc(st)
	}
	if v["systemd"] == "1" {
		c.systemdServices()
	}
	return c.services, c.warnings
}

// serviceCollector holds what serviceFactsScript printed (its values v
// and blobs b), the services the collectors found so far, by name, and
// the warnings they gave, in Ansible's order.
type serviceCollector struct {
	v        shared.Verdict
	b        map[string]string
	services map[string]any
	warnings []string
}

// warn adds a warning.
func (c *serviceCollector) warn(w string) { c.warnings = append(c.warnings, w) }

// sysv adds the services service --status-all listed (it exited with rc),
// as Ansible's SysV collector does.
func (c *serviceCollector) sysv(rc string) {
	if rc != "0" {
		c.warn(fmt.Sprintf("Unable to query 'service' tool (%s): %s", rc, c.b["sysv_err"]))
	}
	for _, m := range sysvStatusLine.FindAllStringSubmatch(c.b["sysv_out"], -1) {
		state := "stopped"
		if m[1] == "+" {
			state = "running"
		}
		c.services[m[2]] = map[string]any{"name": m[2], "state": state, "source": "sysv"}
	}
}

// upstart adds the jobs initctl list listed (it exited with rc), or warns
// when it failed.
func (c *serviceCollector) upstart(rc string) {
	if rc != "0" {
		c.warn("Unable to query upstart for service data: " + c.b["upstart_err"])
		return
	}
	for _, line := range strings.Split(strings.ReplaceAll(c.b["upstart_out"], "\r", ""), "\n") {
		if m := upstartLine.FindStringSubmatch(line); m != nil {
			c.services[m[1]] = map[string]any{"name": m[1], "state": m[3], "goal": m[2], "source": "upstart"}
		}
	}
}

// chkconfig adds the services chkconfig listed (rhn_N), each with its
// runlevel 3 status and the state its status command gave.
func (c *serviceCollector) chkconfig() {
	for i := 1; ; i++ {
		n := strconv.Itoa(i)
		name, ok := c.b["rhn_"+n]
		if !ok {
			return
		}
		status := "disabled"
		if c.v["rhon_"+n] == "1" {
			status = "enabled"
		}
		c.services[name] = map[string]any{"name": name, "state": c.chkconfigState(n, name), "status": status, "source": "sysv"}
	}
}

// chkconfigState is the state of chkconfig's service number n, named
// name: running, stopped, or its status command's exit status (with a
// warning) when that command lacked the permissions.
func (c *serviceCollector) chkconfigState(n, name string) any {
	if c.v["rhst_"+n] == "0" {
		return "running"
	}
	low := strings.ToLower(c.b["rhse_"+n])
	for _, x := range []string{"root", "permission", "not in sudoers"} {
		if strings.Contains(low, x) {
			c.warn(fmt.Sprintf("Insufficient permissions to query sysV service \"%s\" and their states", name))
			return shared.Atoi(c.v["rhst_"+n])
		}
	}
	return "stopped"
}

// openrc adds the services rc-status listed (status), with the runlevels
// rc-update gave them.
func (c *serviceCollector) openrc(status string) {
	runlevels := openrcRunlevels(c.b["openrc_update"])
	for _, line := range strings.Split(status, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		c.services[f[0]] = map[string]any{"name": f[0], "runlevels": runlevels[f[0]], "state": f[1], "source": "openrc"}
	}
}

// openrcRunlevels reads rc-update's "service | runlevels" lines: each
// service's runlevels, nil for none.
func openrcRunlevels(update string) map[string]any {
	runlevels := map[string]any{}
	for _, line := range strings.Split(update, "\n") {
		f := strings.Split(line, "|")
		if len(f) < 2 {
			continue
		}
		if rl := strings.TrimSpace(f[1]); rl == "" {
			runlevels[strings.TrimSpace(f[0])] = nil
		} else {
			runlevels[strings.TrimSpace(f[0])] = strList(strings.Fields(rl))
		}
	}
	return runlevels
}

// systemdServices adds the units systemctl listed, as Ansible's systemd
// collector reads them.
func (c *serviceCollector) systemdServices() {
	own := c.systemdUnits()
	if c.v["files_rc"] != "0" {
		c.warn("Could not get unit files data from systemd: " + c.b["files_err"])
		return
	}
	c.systemdUnitFiles(own, systemdShown(c.v, c.b))
}

// systemdUnits adds the services list-units listed, or warns when it
// failed; it returns the names it added.
func (c *serviceCollector) systemdUnits() map[string]bool {
	own := map[string]bool{}
	if c.v["units_rc"] != "0" {
		c.warn("Could not list units from systemd: " + c.b["units_err"])
		return own
	}
	for _, line := range strings.Split(c.b["units_out"], "\n") {
		if name, unit := systemdUnitLine(line); unit != nil {
			c.services[name] = unit
			own[name] = true
		}
	}
	return own
}

// systemdUnitLine reads one line of list-units: a service's name and
// entry, or a nil entry for a line naming no service.
func systemdUnitLine(line string) (string, map[string]any) {
	if !strings.Contains(line, ".service") {
		return "", nil
	}
	f := strings.Fields(line)
	status := ""
	for _, bad := range systemdBadStates {
		if slices.Contains(f, bad) {
			status, f = bad, f[1:]
			break
		}
	}
	if len(f) < 4 {
		return "", nil
	}
	if status == "" {
		status = f[2]
	}
	state := "stopped"
	if f[3] == "running" {
		state = "running"
	}
	return f[0], map[string]any{"name": f[0], "state": state, "status": status, "source": "systemd"}
}

// systemdShown is the ActiveState systemctl show gave each unit file
// list-units did not name ("unknown" when it gave none).
func systemdShown(v shared.Verdict, b map[string]string) map[string]string {
	shown := map[string]string{}
	for i := 1; ; i++ {
		n := strconv.Itoa(i)
		name, ok := b["shown_name_"+n]
		if !ok {
			return shown
		}
		state := "unknown"
		if out := b["shown_"+n]; v["showrc_"+n] == "0" && out != "" {
			state = strings.TrimRight(strings.ReplaceAll(out, "ActiveState=", ""), " \t\r\n\v\f")
		}
		shown[name] = state
	}
}

// systemdUnitFiles adds the services list-unit-files listed with their
// state as shown gives it, or, for a unit list-units named (own), sets
// its status unless list-units found it in a bad state.
func (c *serviceCollector) systemdUnitFiles(own map[string]bool, shown map[string]string) {
	for _, line := range strings.Split(c.b["files_out"], "\n") {
		if !strings.Contains(line, ".service") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		name, status := f[0], f[1]
		if s, ok := c.services[name].(map[string]any); ok && own[name] {
			if !slices.Contains(systemdBadStates, s["status"].(string)) {
				s["status"] = status
			}
			continue
		}
		state, ok := shown[name]
		if !ok {
			state = "unknown"
		}
		c.services[name] = map[string]any{"name": name, "state": state, "status": status, "source": "systemd"}
	}
}

// strList converts strings to a list of values.
func strList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
