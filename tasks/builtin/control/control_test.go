package control

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestDebugSetFactFailAssertPing(t *testing.T) {
	t.Parallel()
	env, cc := modtest.TestEnv(t, t.TempDir(), map[string]any{"x": 3, "yes": true, "no": false})
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"msg": "hi"}); res.Msg != "hi" || res.Changed {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{}); res.Msg != "Hello world!" {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"var": "x"}); res.Data["x"] != 3 {
		t.Fatalf("%+v", res)
	}
	if res := modtest.RunMod(t, env, "debug", tasks.Args{"var": "nope"}); res.Data["nope"] != "VARIABLE IS NOT DEFINED!" {
		t.Fatalf("%+v", res)
	}
	broken := *env
	broken.Template = func(any) (any, error) { return nil, errors.New("urlsplit: unknown URL component: bad") }
	if res := modtest.RunMod(t, &broken, "debug", tasks.Args{"var": "u | urlsplit('bad')"}); !res.Failed || res.Msg != "urlsplit: unknown URL component: bad" {
		t.Fatalf("a var that fails to evaluate (not undefined) fails the task: %+v", res)
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
	if res = modtest.RunMod(t, env, "assert", tasks.Args{"that": "undefined_thing"}); !res.Failed {
		t.Fatalf("%+v", res)
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
