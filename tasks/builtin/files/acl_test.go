package files

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// TestPlanACL checks the argument rules, entries and command lines acl
// plans, as the module builds them.
func TestPlanACL(t *testing.T) {
	cases := []struct {
		args        tasks.Args
		fail, crash string
		msg, op     string
		set, get    []string
	}{
		{args: tasks.Args{"path": "/f"}, op: "get", msg: "current acl", get: []string{"--omit-header", "--absolute-names"}},
		{args: tasks.Args{"path": "/d", "default": true, "follow": false}, op: "get", msg: "current acl",
			get: []string{"-d", "--omit-header", "--absolute-names", "--physical"}},
		{args: tasks.Args{"path": "/d", "recursive": true}, fail: "'recursive' MUST NOT be set when 'state=query'."},
		{args: tasks.Args{"path": "/d", "recalculate_mask": "no_mask"}, fail: "'recalculate_mask' MUST NOT be set to 'mask' or 'no_mask' when 'state=query'."},
		{args: tasks.Args{"path": "/f", "entry": "u:joe:r"}, fail: "'entry' MUST NOT be set when 'state=query'."},
		{args: tasks.Args{"path": "/f", "state": "absent", "etype": "user", "entity": "joe", "permissions": "r"}, fail: "'permissions' MUST NOT be set when 'state=absent'."},
		{args: tasks.Args{"path": "/f", "state": "absent", "etype": "user"}, fail: "'entity' MUST be set when 'state=absent'."},
		{args: tasks.Args{"path": "/f", "state": "present", "entity": "joe"}, fail: "'etype' MUST be set when 'state=present'."},
		{args: tasks.Args{"path": "/f", "state": "present", "entry": "u:joe:r", "etype": "user"}, fail: "'entry' MUST NOT be set when 'entity', 'etype' or 'permissions' are set."},
		{args: tasks.Args{"path": "/f", "state": "present", "entry": "u:joe"}, fail: "'entry' MUST have 3 or 4 sections divided by ':' when 'state=present'."},
		{args: tasks.Args{"path": "/f", "state": "absent", "entry": "u"}, fail: "'entry' MUST have 2 or 3 sections divided by ':' when 'state=absent'."},
		{args: tasks.Args{"path": "/f", "state": "present", "entry": "x:joe:r"}, crash: "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'"},
		{args: tasks.Args{"path": "/f", "state": "present", "entry": "u:joe:r:x"}, crash: "ValueError: too many values to unpack (expected 3)"},
		{args: tasks.Args{"path": "/f", "state": "absent", "entry": "d:u"}, crash: "ValueError: not enough values to unpack (expected 3, got 1)"},
		{args: tasks.Args{"path": "/f", "state": "present", "etype": "user", "entity": "joe", "use_nfsv4_acls": true}, crash: "TypeError: sequence item 2: expected str instance, NoneType found"},
		{args: tasks.Args{"path": "/f", "state": "absent", "etype": "user", "entity": "joe", "use_nfsv4_acls": true}, crash: "TypeError: can only concatenate str (not \"bool\") to str"},
		{args: tasks.Args{"path": "/f", "state": "present", "etype": "user", "entity": "joe", "permissions": "rw"}, op: "set", msg: "user:joe:rw is present",
			set: []string{"-m", "user:joe:rw"}, get: []string{"--omit-header", "--absolute-names"}},
		{args: tasks.Args{"path": "/f", "state": "present", "etype": "user", "entity": "joe", "permissions": "rw", "use_nfsv4_acls": true}, op: "set",
			msg: "user:joe:rw:allow is present", set: []string{"-m", "user:joe:rw:allow"}, get: []string{"--omit-header", "--absolute-names"}},
		{args: tasks.Args{"path": "/d", "state": "present", "entry": "Default:G:devs:rx", "recursive": true, "recalculate_mask": "mask", "follow": false}, op: "set",
			msg: "group:devs:rx is present", set: []string{"-d", "-m", "group:devs:rx", "--recursive", "--mask", "--physical"},
			get: []string{"-d", "--omit-header", "--absolute-names", "--recursive", "--physical"}},
		{args: tasks.Args{"path": "/f", "state": "absent", "entry": "u:ann:rw", "recalculate_mask": "no_mask"}, op: "rm", msg: "user:ann is absent",
			set: []string{"-x", "user:ann", "--no-mask"}, get: []string{"--omit-header", "--absolute-names"}},
		{args: tasks.Args{"path": "/f", "state": "present", "etype": "other", "permissions": ""}, op: "set", msg: "other: is present",
			set: []string{"-m", "other:"}, get: []string{"--omit-header", "--absolute-names"}},
	}
	for _, c := range cases {
		a, err := aclArgs.Decode(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		p := planACL(a)
		if p.fail != c.fail || p.crash != c.crash {
			t.Errorf("%v: fail %q crash %q, want %q %q", c.args, p.fail, p.crash, c.fail, c.crash)
			continue
		}
		if c.fail != "" || c.crash != "" {
			continue
		}
		if p.op != c.op || p.msg != c.msg || !reflect.DeepEqual(p.set, c.set) || !reflect.DeepEqual(p.get, c.get) {
			t.Errorf("%v: got %+v", c.args, p)
		}
	}
}

// TestACLLines checks how getfacl's output becomes the acl list.
func TestACLLines(t *testing.T) {
	got := aclLines("# file: x\nuser::rw-\n  user:joe:rwx\t#effective:r--  \n\ngroup::r--\n\n")
	want := []string{"user::rw-", "user:joe:rwx\t#effective:r--", "", "group::r--"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("aclLines = %q, want %q", got, want)
	}
	if got := aclLines(""); len(got) != 0 {
		t.Errorf("aclLines(\"\") = %q", got)
	}
	if got := pySplitLines("a\r\nb\rc\x0bd"); !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("pySplitLines = %q", got)
	}
}

// TestACLResult checks the results the script's verdicts give.
func TestACLResult(t *testing.T) {
	p := aclPlan{op: "set", msg: "user:joe:r is present", set: []string{"-d", "-m", "user:joe:r"}, get: []string{"--omit-header"}}
	r, _ := p.result([]byte("path=/f\nsf=/usr/bin/setfacl\nfailed=apply\nrc=1\n\n__T_OUT__\n\n__T_ERR__\nsetfacl: /f: Only directories can have default ACLs\n"), false, "")
	if !r.Failed || r.Msg != "setfacl: /f: Only directories can have default ACLs" || r.Data["cmd"] != "/usr/bin/setfacl -d -m user:joe:r /f" || r.Data["rc"] != 1 {
		t.Errorf("apply failure: %+v", r)
	}
	r, _ = p.result([]byte("path=/f\nsf=/usr/bin/setfacl\nfailed=test\nrc=2\n\n__T_OUT__\n\n__T_ERR__\nx\n"), false, "")
	if r.Data["cmd"] != "/usr/bin/setfacl --test -d -m user:joe:r /f" {
		t.Errorf("test failure cmd: %v", r.Data["cmd"])
	}
	r, _ = p.result([]byte("path=/f\nchanged=1\ndone=1\n\n__T_OUT__\nuser::rw-\n\n__T_ERR__\n"), false, "")
	if r.Failed || !r.Changed || !reflect.DeepEqual(r.Data["acl"], []any{"user::rw-"}) || r.Data["msg"] != p.msg {
		t.Errorf("success: %+v", r)
	}
	r, _ = p.result([]byte("nopath=1\n"), false, "")
	if r.Msg != "Path not found or not accessible." {
		t.Errorf("no path: %+v", r)
	}
	r, _ = aclPlan{crash: "ValueError: boom"}.result([]byte("path=/f\ndone=0\n"), false, "")
	if r.Msg != "MODULE FAILURE\nSee stdout/stderr for the exact error" || !strings.HasSuffix(r.Data["module_stdout"].(string), "ValueError: boom\n") {
		t.Errorf("crash: %+v", r)
	}
}
