package control

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestDebugSetFactFailAssertPing(t *testing.T) {
	t.Parallel()
	env, cc := modtest.TestEnv(t, t.TempDir(), map[string]any{"x": 3, "yes": true, "no": false})
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"msg": "hi"}); res.Msg != "hi" || res.Changed {
		t.Fatalf("%+v", res)
	}
	// An empty message is the result's msg still, as Ansible's.
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"msg": ""}); res.Data["msg"] != "" {
		t.Errorf("empty msg: %+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{}); res.Msg != "Hello world!" {
		t.Fatalf("%+v", res)
	}
	// A msg or var given as None is given (ansible-playbook 2.14): msg
	// null, and a var that renders to itself under the key null.
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"msg": nil}); res.Msg != "null" || res.Data["msg"] != nil {
		t.Errorf("msg None: %+v", res)
	} else if _, ok := res.Data["msg"]; !ok {
		t.Errorf("msg None is not the result's msg: %+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"var": nil}); res.Data["null"] != "VARIABLE IS NOT DEFINED!" {
		t.Errorf("var None: %+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"var": "x"}); res.Data["x"] != 3 {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"var": "nope"}); res.Data["nope"] != "VARIABLE IS NOT DEFINED!" {
		t.Fatalf("%+v", res)
	}
	broken := *env
	broken.Template = func(any) (any, error) { return nil, errors.New("urlsplit: unknown URL component: bad") }
	// A var that fails to evaluate (not undefined) fails the task, as
	// Ansible's debug action raises it: no changed in the result.
	var ae *tasks.ActionError
	if _, err := (debugModule{}).Run(context.Background(), &broken, tasks.Args{"var": "u | urlsplit('bad')"}); !errors.As(err, &ae) || ae.Msg != "urlsplit: unknown URL component: bad" {
		t.Fatalf("a var that fails to evaluate: %v", err)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"msg": "x", "verbosity": 2}); !res.Skipped || res.Data["skipped_reason"] != "Verbosity threshold not met." {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"msg": "x", "var": "x"}); !res.Failed || res.Msg != "'msg' and 'var' are incompatible options" {
		t.Fatalf("%+v", res)
	}
	res := modtest.RunMod(t, env, "set_fact", tasks.Args{"a": "yes", "b": 2, "cacheable": true})
	if !reflect.DeepEqual(res.Data, map[string]any{"ansible_facts": map[string]any{"a": true, "b": 2}}) || res.Changed {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "set_fact", tasks.Args{"a-b": 1}); !res.Failed {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "set_fact", tasks.Args{}); !res.Failed {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "fail", tasks.Args{}); !res.Failed || res.Msg != "Failed as requested from task" {
		t.Fatalf("%+v", res)
	}
	// A msg that is not a string stays what it is, as Ansible's fail
	// returns it ("msg": 1).
	if res := modtest.RunMod(t, env, "fail", tasks.Args{"msg": 1}); !res.Failed || res.Data["msg"] != 1 {
		t.Errorf("fail msg=1: %+v", res)
	}
	if res := modtest.RunMod(t, env, "assert", tasks.Args{"that": []any{"yes", true}, "success_msg": "ok"}); res.Failed || res.Msg != "ok" {
		t.Fatalf("%+v", res)
	}
	// an empty item (YAML's bare "-") holds, as in Ansible (copy target)
	if res := modtest.RunMod(t, env, "assert", tasks.Args{"that": []any{"yes", nil}, "success_msg": "ok"}); res.Failed {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "assert", tasks.Args{"that": []any{"yes", "no"}, "fail_msg": "bad"})
	if !res.Failed || res.Msg != "bad" || res.Data["assertion"] != "no" || res.Data["evaluated_to"] != false {
		t.Fatalf("%+v", res)
	}
	// A condition that does not evaluate is raised by Ansible's action.
	if _, err := (assertModule{}).Run(context.Background(), env, tasks.Args{"that": "undefined_thing"}); !errors.As(err, &ae) || !strings.HasPrefix(ae.Msg, "The conditional check 'undefined_thing' failed.") {
		t.Fatalf("%v", err)
	}
	// Without that, the action itself fails (no changed in the result),
	// as Ansible's assert does.
	_, err := assertModule{}.Run(context.Background(), env, tasks.Args{"quiet": true})
	if !errors.As(err, &ae) || ae.Msg != `conditional required in "that" string` {
		t.Fatalf("assert without that: %v", err)
	}
	if cc.Runs != 0 {
		t.Fatalf("controller-side modules used %d round trips", cc.Runs)
	}
	if res = modtest.RunMod(t, env, "ping", tasks.Args{}); res.Data["ping"] != "pong" || cc.Runs != 1 {
		t.Fatalf("%+v", res)
	}
	if res = modtest.RunMod(t, env, "ping", tasks.Args{"data": "crash"}); !res.Failed {
		t.Fatalf("%+v", res)
	}
}

// TestSetFactKeepsOrder: the facts come in the order of the arguments, as
// Ansible's dict keeps them (the varnames lookup lists them so), and the
// first bad name in that order is the one reported.
func TestSetFactKeepsOrder(t *testing.T) {
	t.Parallel()
	args := tasks.Args(pydict.Record(map[string]any{"qz_1": "a", "qz_2": "b", "qa_1": "c", "cacheable": false}, []string{"qz_1", "qz_2", "cacheable", "qa_1"}))
	res, err := setFactModule{}.Run(context.Background(), nil, args)
	facts, _ := res.Data["ansible_facts"].(map[string]any)
	if err != nil || !reflect.DeepEqual(pydict.Keys(facts), []string{"qz_1", "qz_2", "qa_1"}) {
		t.Fatalf("%v %v", pydict.Keys(facts), err)
	}
	bad := tasks.Args(pydict.Record(map[string]any{"z-1": 1, "a-1": 2}, []string{"z-1", "a-1"}))
	if res, _ := (setFactModule{}).Run(context.Background(), nil, bad); !res.Failed || res.Msg[:23] != "The variable name 'z-1'" {
		t.Fatalf("%+v", res)
	}
}

// TestAddHostRawParams: free-form arguments are a dict the other
// arguments update (name wins over hostname), anything else is refused
// with its Python class; groups are split, stripped and deduplicated as
// Ansible's action does; host and group are host variables.
func TestAddHostRawParams(t *testing.T) {
	t.Parallel()
	raw := pydict.Record(map[string]any{"hostname": "h1", "groups": "a, a,b", "host": "hh", "v": 1}, []string{"hostname", "groups", "host", "v"})
	res, err := addHostModule{}.Run(context.Background(), nil, tasks.Args{"_raw_params": raw, "name": "h2:2222", "v": 2})
	want := map[string]any{"host_name": "h2", "groups": []any{"a", "a", "b"}, "host_vars": map[string]any{"ansible_ssh_port": 2222, "host": "hh", "v": 2}}
	if err != nil || res.Failed || !reflect.DeepEqual(res.Data["add_host"], want) {
		t.Fatalf("%+v %v", res, err)
	}
	for _, c := range []struct {
		args tasks.Args
		msg  string
	}{
		{tasks.Args{"_raw_params": "foo", "name": "x"}, "Invalid raw parameters passed, requires a dictonary/mapping got a  <class 'str'>"},
		{tasks.Args{"_raw_params": map[string]any{"v": 1}}, "name, host or hostname needs to be provided"},
		{tasks.Args{"name": "x", "groups": 5}, "Groups must be specified as a list."},
		{tasks.Args{"name": "x", "groups": []any{"a", 5}}, "'int' object has no attribute 'strip'"},
	} {
		// Refused as Ansible's action does (AnsibleActionFail): an error,
		// which the engine reports as the result, unjudged.
		if _, err := (addHostModule{}).Run(context.Background(), nil, c.args); err == nil || err.Error() != c.msg {
			t.Errorf("%v: %v", c.args, err)
		}
	}
	if res, _ := (addHostModule{}).Run(context.Background(), nil, tasks.Args{"name": "x", "groups": ""}); res.Failed || len(res.Data["add_host"].(map[string]any)["groups"].([]any)) != 0 {
		t.Errorf("empty groups: %+v", res)
	}
}

// TestSetFactBooleanStrings: "yes", "no", "true" and "false" strings
// become booleans, except under jinja2_native, where they stay text.
func TestSetFactBooleanStrings(t *testing.T) {
	t.Parallel()
	args := tasks.Args{"a": "yes", "b": "False", "c": "maybe"}
	for _, native := range []bool{false, true} {
		res, err := setFactModule{}.Run(context.Background(), &tasks.Env{Jinja2Native: native}, args)
		facts, _ := res.Data["ansible_facts"].(map[string]any)
		want := map[string]any{"a": true, "b": false, "c": "maybe"}
		if native {
			want = map[string]any{"a": "yes", "b": "False", "c": "maybe"}
		}
		if err != nil || !reflect.DeepEqual(facts, want) {
			t.Errorf("native=%v: %v %v", native, facts, err)
		}
	}
}
