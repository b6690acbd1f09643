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
	comm := m.comm
	if comm == "" {
		comm = "/proc/1/comm"
	}
	opt := m.optDirs
	if opt == "" {
		opt = "/usr/bin:/usr/local/bin"
	}
	out, err := shared.Run(ctx, env, "_t_comm="+shared.Q(comm)+"\n_t_optdirs="+shared.Q(opt)+"\n"+serviceFactsScript, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, b := shared.ParseBlobs(out.Stdout)
	if v["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	services, warnings := serviceFacts(v, b)
	if len(services) == 0 {
		return tasks.Result{Skipped: true, Warnings: warnings, Data: map[string]any{},
			Msg: "Failed to find any services. This can be due to privileges or some other configuration issue."}, nil
	}
	return tasks.Result{Warnings: warnings, Data: map[string]any{"ansible_facts": map[string]any{"services": services}}}, nil
}

// serviceFacts parses what serviceFactsScript printed into the services
// map and the warnings Ansible's collectors give.
func serviceFacts(v shared.Verdict, b map[string]string) (map[string]any, []string) {
	services := map[string]any{}
	var warnings []string
	add := func(name string, m map[string]any) { services[name] = m }
	if rc, ok := v["sysv_rc"]; ok && !(rc == "4" && v["initd"] != "1") {
		if rc != "0" {
			warnings = append(warnings, fmt.Sprintf("Unable to query 'service' tool (%s): %s", rc, b["sysv_err"]))
		}
		for _, m := range sysvStatusLine.FindAllStringSubmatch(b["sysv_out"], -1) {
			state := "stopped"
			if m[1] == "+" {
				state = "running"
			}
			add(m[2], map[string]any{"name": m[2], "state": state, "source": "sysv"})
		}
	}
	if rc, ok := v["upstart_rc"]; ok {
		if rc != "0" {
			warnings = append(warnings, "Unable to query upstart for service data: "+b["upstart_err"])
		} else {
			for _, line := range strings.Split(strings.ReplaceAll(b["upstart_out"], "\r", ""), "\n") {
				if m := upstartLine.FindStringSubmatch(line); m != nil {
					add(m[1], map[string]any{"name": m[1], "state": m[3], "goal": m[2], "source": "upstart"})
				}
			}
		}
	}
	for i := 1; ; i++ {
		n := strconv.Itoa(i)
		name, ok := b["rhn_"+n]
		if !ok {
			break
		}
		status := "disabled"
		if v["rhon_"+n] == "1" {
			status = "enabled"
		}
		var state any = "stopped"
		if v["rhst_"+n] == "0" {
			state = "running"
		} else {
			low := strings.ToLower(b["rhse_"+n])
			for _, x := range []string{"root", "permission", "not in sudoers"} {
				if strings.Contains(low, x) {
					warnings = append(warnings, fmt.Sprintf("Insufficient permissions to query sysV service \"%s\" and their states", name))
					state = shared.Atoi(v["rhst_"+n])
					break
				}
			}
		}
		add(name, map[string]any{"name": name, "state": state, "status": status, "source": "sysv"})
	}
	if st, ok := b["openrc_status"]; ok {
		runlevels := map[string]any{}
		for _, line := range strings.Split(b["openrc_update"], "\n") {
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
		for _, line := range strings.Split(st, "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			add(f[0], map[string]any{"name": f[0], "runlevels": runlevels[f[0]], "state": f[1], "source": "openrc"})
		}
	}
	if v["systemd"] == "1" {
		warnings = systemdServices(v, b, services, warnings)
	}
	return services, warnings
}

// systemdServices adds the units systemctl listed, as Ansible's systemd
// collector reads them.
func systemdServices(v shared.Verdict, b map[string]string, services map[string]any, warnings []string) []string {
	own := map[string]bool{}
	if v["units_rc"] != "0" {
		warnings = append(warnings, "Could not list units from systemd: "+b["units_err"])
	} else {
		for _, line := range strings.Split(b["units_out"], "\n") {
			if !strings.Contains(line, ".service") {
				continue
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
				continue
			}
			if status == "" {
				status = f[2]
			}
			state := "stopped"
			if f[3] == "running" {
				state = "running"
			}
			services[f[0]] = map[string]any{"name": f[0], "state": state, "status": status, "source": "systemd"}
			own[f[0]] = true
		}
	}
	if v["files_rc"] != "0" {
		return append(warnings, "Could not get unit files data from systemd: "+b["files_err"])
	}
	shown := map[string]string{}
	for i := 1; ; i++ {
		n := strconv.Itoa(i)
		name, ok := b["shown_name_"+n]
		if !ok {
			break
		}
		state := "unknown"
		if out := b["shown_"+n]; v["showrc_"+n] == "0" && out != "" {
			state = strings.TrimRight(strings.ReplaceAll(out, "ActiveState=", ""), " \t\r\n\v\f")
		}
		shown[name] = state
	}
	for _, line := range strings.Split(b["files_out"], "\n") {
		if !strings.Contains(line, ".service") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		name, status := f[0], f[1]
		if s, ok := services[name].(map[string]any); ok && own[name] {
			if !slices.Contains(systemdBadStates, s["status"].(string)) {
				s["status"] = status
			}
			continue
		}
		state, ok := shown[name]
		if !ok {
			state = "unknown"
		}
		services[name] = map[string]any{"name": name, "state": state, "status": status, "source": "systemd"}
	}
	return warnings
}

// strList converts strings to a list of values.
func strList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
