package net

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// fwJob decodes args as the module does and builds the task's job.
func fwJob(t *testing.T, args tasks.Args) *firewalldJob {
	t.Helper()
	a, err := firewalldArgs.Decode(args)
	if err != nil {
		t.Fatal(err)
	}
	return newFirewalldJob(a, false)
}

func TestFirewalldArgs(t *testing.T) {
	for _, c := range []struct {
		args tasks.Args
		err  string
	}{
		{tasks.Args{"state": "enabled", "port": "8080"}, "improper port format (missing protocol?)"},
		{tasks.Args{"state": "enabled", "port": "8080/"}, "improper port format (missing protocol?)"},
		{tasks.Args{"state": "enabled", "port": "1/tcp/x"}, "more than one '/'"},
		{tasks.Args{"state": "enabled", "port_forward": []any{map[string]any{"proto": "tcp", "toport": "1"}}}, "port must be specified for port forward"},
		{tasks.Args{"state": "enabled", "port_forward": []any{map[string]any{"port": "1", "toport": "1"}}}, "proto udp/tcp must be specified"},
		{tasks.Args{"state": "enabled", "port_forward": []any{map[string]any{"port": "1", "proto": "tcp"}}}, "toport must be specified"},
		{tasks.Args{"state": "enabled", "port_forward": []any{map[string]any{}, map[string]any{}}}, "Only one port forward"},
		{tasks.Args{"state": "present", "service": "http"}, "absent and present state can only be used in zone level operations"},
		{tasks.Args{"state": "absent", "zone": "z", "target": "DROP", "permanent": true}, ""},
		{tasks.Args{"state": "enabled", "port": " 80/tcp "}, ""},
	} {
		j := fwJob(t, c.args)
		if c.err == "" && j.argErr != "" || !strings.Contains(j.argErr, c.err) {
			t.Errorf("%v: error %q, want %q", c.args, j.argErr, c.err)
		}
	}
	if _, err := firewalldArgs.Decode(tasks.Args{"state": "enabled", "port_forward": []any{"8080"}}); err == nil ||
		!strings.HasPrefix(err.Error(), "Elements value for option 'port_forward' is of type <class 'str'> and we were unable to convert to dict") {
		t.Errorf("a forward that is no dict: %v", err)
	}
	j := fwJob(t, tasks.Args{"state": "enabled", "port": " 80/tcp ", "timeout": 30})
	if j.portText != "80/tcp" || j.tx.add[0] != "--add-port=80/tcp" || !j.immediate || j.permanent {
		t.Errorf("port task: %+v %+v", j, j.tx)
	}
	j = fwJob(t, tasks.Args{"state": "disabled", "masquerade": "no"})
	if j.state != "enabled" {
		t.Errorf("masquerade no, state disabled moves to %s, want enabled", j.state)
	}
	j = fwJob(t, tasks.Args{"state": "enabled", "masquerade": "sometimes"})
	if j.state != "enabled" || len(j.warnings) != 1 || !strings.Contains(j.warnings[0], `"sometimes"`) {
		t.Errorf("odd masquerade: state %s, warnings %q", j.state, j.warnings)
	}
}

// fwRan is a host's answer to the reads: rc and stdout of qp and qi.
func fwRan(qp, qpOut, qi, qiOut string) shared.Blobs {
	return shared.Blobs{V: map[string]string{"rc.qp": qp, "rc.qi": qi},
		Blobs: map[string]string{"out.qp": qpOut, "out.qi": qiOut}}
}

func TestFirewalldDecide(t *testing.T) {
	both := tasks.Args{"service": "http", "permanent": true, "immediate": true}
	for _, c := range []struct {
		name  string
		args  tasks.Args
		state string
		host  shared.Blobs
		steps []fwStep
		msg   string
	}{
		{"both missing", both, "enabled", fwRan("0", "ssh", "0", "ssh"),
			[]fwStep{{permanent: true, enable: true}, {enable: true}}, "Permanent and Non-Permanent(immediate) operation"},
		{"permanent only there", both, "enabled", fwRan("0", "ssh http", "0", "ssh"), []fwStep{{enable: true}}, ""},
		{"both there, disable", both, "disabled", fwRan("0", "http", "0", "http"),
			[]fwStep{{permanent: true}, {}}, ""},
		{"nothing to do", both, "disabled", fwRan("0", "ssh", "0", "ssh"), nil, ""},
		{"runtime query yes", tasks.Args{"port": "80/tcp"}, "enabled", fwRan("", "", "0", ""), nil, "Non-permanent operation"},
		{"permanent query no", tasks.Args{"port": "80/tcp", "permanent": true}, "enabled", fwRan("1", "", "", ""),
			[]fwStep{{permanent: true, enable: true}}, "Permanent operation"},
		{"port checked when set", tasks.Args{"port": "80/xyz"}, "enabled", fwRan("", "", "103", ""), []fwStep{{enable: true}}, ""},
		{"target REJECT", tasks.Args{"zone": "w", "target": "%%REJECT%%", "permanent": true}, "present",
			fwRan("0", "REJECT\n", "", ""), nil, "Permanent operation"},
		{"target reset", tasks.Args{"zone": "w", "target": "DROP", "permanent": true}, "absent",
			fwRan("0", "DROP\n", "", ""), []fwStep{{permanent: true}}, ""},
		{"zone created", tasks.Args{"zone": "new", "permanent": true}, "present", fwRan("0", "block public", "", ""),
			[]fwStep{{permanent: true, enable: true}}, ""},
	} {
		args := tasks.Args{"state": c.state}
		for k, v := range c.args {
			args[k] = v
		}
		j := fwJob(t, args)
		j.zone = "new"
		steps := j.decide(c.host)
		if j.failMsg != "" || len(steps) != len(c.steps) {
			t.Errorf("%s: steps %+v (fail %q), want %+v", c.name, steps, j.failMsg, c.steps)
			continue
		}
		for i := range steps {
			if steps[i] != c.steps[i] {
				t.Errorf("%s: step %d %+v, want %+v", c.name, i, steps[i], c.steps[i])
			}
		}
		if c.msg != "" && strings.Join(j.msgs, ", ") != c.msg {
			t.Errorf("%s: msgs %q, want %q", c.name, j.msgs, c.msg)
		}
	}
	j := fwJob(t, tasks.Args{"state": "enabled", "zone": "w", "target": "DROP"})
	if j.decide(fwRan("", "", "", "")); j.failMsg != fwMustBePermanent {
		t.Errorf("a target on the running firewall: %q", j.failMsg)
	}
	j = fwJob(t, tasks.Args{"state": "enabled", "zone": "nope", "port": "80/tcp"})
	h := fwRan("", "", "112", "")
	h.Blobs["err.qi"] = "Error: INVALID_ZONE: nope\n"
	if j.decide(h); j.failMsg != "ERROR: Exception caught: org.fedoraproject.FirewallD1.Exception: INVALID_ZONE: nope" {
		t.Errorf("an unknown zone read leniently: %q", j.failMsg)
	}
}

func TestFirewalldMessages(t *testing.T) {
	j := fwJob(t, tasks.Args{"state": "enabled", "service": "nope", "permanent": true})
	j.msgs = []string{"Permanent operation"}
	want := "ERROR: Exception caught: org.fedoraproject.FirewallD1.Exception: INVALID_SERVICE: nope Permanent operation, " + fwServiceHint
	if got := j.exception("Error: INVALID_SERVICE: nope\n", ""); got != want {
		t.Errorf("online error:\n%s\nwant\n%s", got, want)
	}
	j.offline = true
	if got := j.exception("INVALID_SERVICE: nope\n", ""); !strings.HasPrefix(got, "ERROR: Exception caught: INVALID_SERVICE: nope Permanent") {
		t.Errorf("offline error: %s", got)
	}
	j = fwJob(t, tasks.Args{"state": "enabled", "rich_rule": "rule family=ipv5 accept"})
	if got := j.exception("Error: INVALID_RULE: bad\n", ""); got != "ERROR: Exception caught: INVALID_RULE: bad" {
		t.Errorf("rich rule error: %s", got)
	}

	j = fwJob(t, tasks.Args{"state": "enabled", "source": "192.0.2.0/24", "zone": "trusted", "permanent": true})
	j.zone, j.offline, j.msgs = "trusted", true, []string{"Permanent operation"}
	r := j.finish([]fwStep{{permanent: true, enable: true}})
	if want := "Permanent operation, Added 192.0.2.0/24 to zone trusted, (offline operation: only on-disk configs were altered)"; r.Msg != want || !r.Changed {
		t.Errorf("source added offline: %q changed %v", r.Msg, r.Changed)
	}
	j = fwJob(t, tasks.Args{"state": "absent", "zone": "custom", "permanent": true})
	j.zone, j.msgs = "custom", []string{"Permanent operation"}
	if r := j.finish([]fwStep{{permanent: true}}); r.Msg != "Permanent operation, Removed zone custom, Changed zone custom to absent" {
		t.Errorf("zone removed: %q", r.Msg)
	}
	j = fwJob(t, tasks.Args{"state": "enabled", "port_forward": []any{map[string]any{"port": 8080, "proto": "tcp", "toport": 80}}})
	j.msgs = []string{"Non-permanent operation"}
	if r := j.finish([]fwStep{{enable: true}}); !strings.HasSuffix(r.Msg, "Changed port_forward port=8080:proto=tcp:toport=80:toaddr= to enabled") {
		t.Errorf("forward added: %q", r.Msg)
	}
}

func TestFirewalldScripts(t *testing.T) {
	j := fwJob(t, tasks.Args{"state": "enabled", "service": "http"})
	if s := j.readScript(); !strings.Contains(s, "echo offimm=1") || !strings.Contains(s, "_t_x qi 0 _f_i \"--zone=$_f_zone\" --list-services") ||
		strings.Contains(s, "_t_x qp") {
		t.Errorf("a runtime read:\n%s", s[strings.Index(s, "_f_begin\n"):])
	}
	j = fwJob(t, tasks.Args{"state": "disabled", "service": "pop3", "permanent": true})
	j.offline, j.zone = true, "public"
	if s := j.applyScript([]fwStep{{permanent: true}}); !strings.Contains(s, "--remove-service-from-zone=pop3") ||
		!strings.Contains(s, "= offline ]") {
		t.Errorf("an offline removal:\n%s", s[strings.Index(s, "_f_begin\n"):])
	}
	j = fwJob(t, tasks.Args{"state": "enabled", "service": "ftp", "permanent": true, "immediate": true, "timeout": -5})
	j.zone = "public"
	s := j.applyScript([]fwStep{{permanent: true, enable: true}, {enable: true}})
	if !strings.Contains(s, "_t_x s0 0 _f_p") || !strings.Contains(s, "badtimeout=-5") || strings.Contains(s, "_t_x s1") {
		t.Errorf("a negative timeout:\n%s", s[strings.Index(s, "_f_begin\n"):])
	}
	j = fwJob(t, tasks.Args{"state": "enabled", "service": "ftp", "timeout": 300})
	j.zone = "public"
	if s := j.applyScript([]fwStep{{enable: true}}); !strings.Contains(s, "--add-service=ftp --timeout=300") {
		t.Errorf("a timeout:\n%s", s[strings.Index(s, "_f_begin\n"):])
	}
	h := shared.ParseBlobMap([]byte("\nmode=online\nzone=public\nrc.qi=1\n\n@@blob 4 out.qi\nssh\n\n@@blob 0 err.qi\n\ndone=1\n"))
	if h.V["rc.qi"] != "1" || h.Blobs["out.qi"] != "ssh\n" || h.V["done"] != "1" {
		t.Errorf("parsed %+v", h)
	}
}
