package system

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// altDisplay is Debian's update-alternatives --display of a group in
// manual mode with one slave.
const altDisplay = `foo - manual mode
  link best version is /opt/alt/foo4
  link currently points to /opt/alt/foo4
  link foo is /usr/local/bin/foo
  slave foo.1 is /usr/local/share/man/man1/foo.1
/opt/alt/foo1 - priority 30
/opt/alt/foo3 - priority 6
  slave foo.1: /opt/alt/foo1.1
/opt/alt/foo4 - priority 50
  slave foo.1: (null)
`

// altRedhat is RedHat's alternatives --display of a group.
const altRedhat = `java - status is auto.
 link currently points to /usr/lib/jvm/java-17/bin/java
/usr/lib/jvm/java-17/bin/java - family java-17 priority 1700
 follower jre: /usr/lib/jvm/java-17
Current ` + "`best'" + ` version is /usr/lib/jvm/java-17/bin/java.
`

// TestParseAltDisplay checks the reading of both displays.
func TestParseAltDisplay(t *testing.T) {
	c := parseAltDisplay(altDisplay, nil, false)
	if c.mode != "manual" || c.path != "/opt/alt/foo4" || c.link != "/usr/local/bin/foo" || len(c.alternatives) != 3 {
		t.Fatalf("debian: %+v", c)
	}
	if e := c.alternatives["/opt/alt/foo3"]; e.priority != 6 || !reflect.DeepEqual(e.subs, []map[string]any{
		{"name": "foo.1", "path": "/opt/alt/foo1.1", "link": "/usr/local/share/man/man1/foo.1"}}) {
		t.Errorf("foo3: %+v", e)
	}
	if e := c.alternatives["/opt/alt/foo4"]; len(e.subs) != 0 {
		t.Errorf("a (null) slave is none: %+v", e)
	}
	r := parseAltDisplay(altRedhat, []altSub{{Name: "jre", Path: "/x", Link: "/usr/bin/jre"}}, true)
	if r.mode != "auto" || r.hasLink || r.alternatives["/usr/lib/jvm/java-17/bin/java"].priority != 1700 {
		t.Fatalf("redhat: %+v", r)
	}
	if s := r.alternatives["/usr/lib/jvm/java-17/bin/java"].subs; len(s) != 1 || s[0]["link"] != "/usr/bin/jre" {
		t.Errorf("redhat followers take the given links: %+v", s)
	}
	if c := parseAltDisplay("nonsense", nil, false); c.hasMode || c.parsedAlternatives {
		t.Errorf("no mode: %+v", c)
	}
}

// TestAltPlan checks the commands and messages for each state.
func TestAltPlan(t *testing.T) {
	cur := parseAltDisplay(altDisplay, nil, false)
	ua := "/usr/bin/update-alternatives"
	for _, c := range []struct {
		name string
		j    altJob
		cmds string
		msg  string
		fail string
	}{
		{"new group", altJob{path: "/opt/x", link: "/usr/bin/x", hasLink: true, state: "selected", exists: true},
			"--install /usr/bin/x foo /opt/x 50 | --set foo /opt/x",
			"Install alternative '/opt/x' for 'foo'. Set alternative '/opt/x' for 'foo'.", ""},
		{"no link", altJob{path: "/opt/x", state: "selected", exists: true}, "", "",
			"Needed to install the alternative, but unable to do so as we are missing the link"},
		{"no path", altJob{path: "/opt/x", state: "present"}, "", "", "Specified path /opt/x does not exist"},
		{"selected already", altJob{path: "/opt/alt/foo4", state: "selected", cur: cur}, "", "", ""},
		{"present other", altJob{path: "/opt/alt/foo1", state: "present", cur: cur}, "", "", ""},
		{"priority", altJob{path: "/opt/alt/foo1", state: "present", cur: cur, hasPriority: true, priority: 5, exists: true},
			"--install /usr/local/bin/foo foo /opt/alt/foo1 5", "Install alternative '/opt/alt/foo1' for 'foo'.", ""},
		{"select", altJob{path: "/opt/alt/foo1", state: "selected", cur: cur}, "--set foo /opt/alt/foo1",
			"Set alternative '/opt/alt/foo1' for 'foo'.", ""},
		{"auto", altJob{path: "/opt/alt/foo1", state: "auto", cur: cur}, "--auto foo", "Set alternative to auto for 'foo'.", ""},
		{"same subs", altJob{path: "/opt/alt/foo3", state: "present", cur: cur, hasSubs: true,
			subs: []altSub{{Name: "foo.1", Path: "/opt/alt/foo1.1", Link: "/usr/local/share/man/man1/foo.1"}}}, "", "", ""},
		{"no subs", altJob{path: "/opt/alt/foo3", state: "present", cur: cur, hasSubs: true, subs: []altSub{}, exists: true},
			"--install /usr/local/bin/foo foo /opt/alt/foo3 6", "Install alternative '/opt/alt/foo3' for 'foo'.", ""},
		{"new subs", altJob{path: "/opt/alt/foo1", state: "present", cur: cur, hasSubs: true, exists: true,
			subs: []altSub{{Name: "foo.1", Path: "/opt/alt/foo1.1", Link: "/usr/share/foo.1"}}},
			"--install /usr/local/bin/foo foo /opt/alt/foo1 30 --slave /usr/share/foo.1 foo.1 /opt/alt/foo1.1",
			"Install alternative '/opt/alt/foo1' for 'foo'.", ""},
		{"absent", altJob{path: "/opt/alt/foo1", state: "absent", cur: cur}, "--remove foo /opt/alt/foo1",
			"Remove alternative '/opt/alt/foo1' from 'foo'.", ""},
		{"absent already", altJob{path: "/opt/x", state: "absent", cur: cur}, "", "", ""},
	} {
		c.j.ua, c.j.name = ua, "foo"
		p, fail := c.j.plan()
		if fail != c.fail {
			t.Errorf("%s: fail %q, want %q", c.name, fail, c.fail)
			continue
		}
		var cmds []string
		for _, cmd := range p.cmds {
			if cmd[0] != ua || cmd[2] == "" {
				t.Errorf("%s: %v", c.name, cmd)
			}
			cmds = append(cmds, strings.Join(cmd[1:], " "))
		}
		if got := strings.Join(cmds, " | "); got != c.cmds || strings.Join(p.msgs, " ") != c.msg {
			t.Errorf("%s: %q %q; want %q %q", c.name, got, p.msgs, c.cmds, c.msg)
		}
	}
}

// TestAltPlanDiff checks the diff of a selection in manual mode.
func TestAltPlanDiff(t *testing.T) {
	j := altJob{ua: "ua", name: "foo", path: "/opt/alt/foo3", state: "selected", diff: true, cur: parseAltDisplay(altDisplay, nil, false)}
	p, _ := j.plan()
	want := map[string]any{"state": "selected", "path": "/opt/alt/foo3", "priority": 6, "link": "/usr/local/bin/foo",
		"subcommands": []any{map[string]any{"name": "foo.1", "path": "/opt/alt/foo1.1", "link": "/usr/local/share/man/man1/foo.1"}}}
	if !reflect.DeepEqual(p.before, want) || !reflect.DeepEqual(p.after, map[string]any{"state": "selected"}) {
		t.Errorf("diff %v -> %v", p.before, p.after)
	}
}

// TestAltSubcommands checks the subcommands' own argument checks.
func TestAltSubcommands(t *testing.T) {
	for _, c := range []struct {
		subs []any
		err  string
	}{
		{[]any{map[string]any{"name": "a", "path": "/p"}}, "missing required arguments: link found in subcommands"},
		{[]any{map[string]any{"name": "a", "path": "/p", "link": "/l", "mode": 1}},
			"Unsupported parameters for (alternatives) module: subcommands.mode. Supported parameters include: link, name, path."},
		{[]any{map[string]any{"name": "a", "path": "/p", "link": "/l"}}, ""},
	} {
		subs, has, err := altSubcommands(tasks.Values{"subcommands": c.subs})
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%v: %v, want %s", c.subs, err, c.err)
			}
			continue
		}
		if err != nil || !has || len(subs) != 1 || subs[0] != (altSub{Name: "a", Path: "/p", Link: "/l"}) {
			t.Errorf("%v: %v %v %v", c.subs, subs, has, err)
		}
	}
}
