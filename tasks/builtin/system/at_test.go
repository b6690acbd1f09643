package system

import (
	"context"
	"reflect"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestAtCheckMode checks that at, which has no check mode, skips.
func TestAtCheckMode(t *testing.T) {
	r, err := atModule{}.Run(context.Background(), &tasks.Env{Check: true}, tasks.Args{"command": "true", "count": 1, "units": "days"})
	if err != nil || !r.Skipped || r.Msg != atNoCheck {
		t.Fatalf("%+v %v", r, err)
	}
}

// TestAtArgs checks the argument rules at shares with Ansible's.
func TestAtArgs(t *testing.T) {
	for args, want := range map[string]tasks.Args{
		"parameters are mutually exclusive: command|script_file":                  {"command": "x", "script_file": "/f"},
		"one of the following is required: command, script_file":                  {"count": 1},
		"value of units must be one of: minutes, hours, days, weeks, got: months": {"command": "x", "units": "months"},
	} {
		_, err := atArgs.Decode(want)
		if err == nil || err.Error() != args {
			t.Errorf("%v: %v, want %q", want, err, args)
		}
	}
}

// TestAtCommandFailure checks the result of a failed at or atq.
func TestAtCommandFailure(t *testing.T) {
	v := shared.Verdict{"fail": "rc", "what": "f", "rc": "1", "at_bin": "/usr/bin/at", "argv": "/srv/my\x1fjob.sh"}
	r := atCommandFailure(v, "1", "days", "", "Garbled time\n")
	want := map[string]any{"cmd": "/usr/bin/at -f /srv/my job.sh now + 1 days", "rc": 1, "stdout": "", "stderr": "Garbled time\n",
		"stdout_lines": []any{}, "stderr_lines": []any{"Garbled time"}}
	if !r.Failed || r.Msg != "Garbled time" || !reflect.DeepEqual(r.Data, want) {
		t.Errorf("%+v", r)
	}
	r = atCommandFailure(shared.Verdict{"what": "r", "job": "3", "at_bin": "/usr/bin/at", "rc": "1"}, "", "", "", "")
	if r.Data["cmd"] != "/usr/bin/at -r 3" {
		t.Errorf("cmd %q", r.Data["cmd"])
	}
	r = atCommandFailure(shared.Verdict{"what": "atq", "atq_bin": "/usr/bin/atq", "rc": "1"}, "", "", "", "")
	if r.Data["cmd"] != "/usr/bin/atq" {
		t.Errorf("cmd %q", r.Data["cmd"])
	}
}
