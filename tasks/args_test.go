package tasks

import (
	"reflect"
	"strings"
	"testing"
)

var copySpec = Spec{
	Module: "copy",
	Params: []Param{
		{Name: "dest", Kind: Path, Required: true, Aliases: []string{"path"}},
		{Name: "src", Kind: Path},
		{Name: "content", Kind: Raw},
		{Name: "force", Kind: Bool, Default: true},
		{Name: "state", Choices: []string{"file", "absent"}},
		{Name: "count", Kind: Int},
		{Name: "names", Kind: List},
		{Name: "opts", Kind: Dict},
	},
	MutuallyExclusive: [][]string{{"content", "src"}},
}

func TestDecode(t *testing.T) {
	got, err := copySpec.Decode(Args{"path": "/x", "force": "no", "count": "12", "names": "a,b", "opts": "k=v x='a b'"})
	if err != nil {
		t.Fatal(err)
	}
	want := Values{"dest": "/x", "force": false, "count": 12, "names": []any{"a", "b"}, "opts": map[string]any{"k": "v", "x": "a b"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	got, _ = copySpec.Decode(Args{"dest": 5})
	if got.Str("dest") != "5" || !got.Bool("force") {
		t.Fatalf("defaults/str: %#v", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		args Args
		want string
	}{
		{Args{"dest": "/x", "dset": 1}, "Unsupported parameters for (copy) module: dset. Supported parameters include: content, count, dest, force, names, opts, src, state (path). Did you mean \"dest\""},
		{Args{}, "missing required arguments: dest"},
		{Args{"dest": "/x", "state": "dir"}, "value of state must be one of: file, absent, got: dir"},
		{Args{"dest": "/x", "src": "a", "content": "b"}, "parameters are mutually exclusive: content|src"},
		{Args{"dest": "/x", "force": "maybe"}, "argument 'force' is of type <class 'str'> and we were unable to convert to bool: The value 'maybe' is not a valid boolean."},
		{Args{"dest": "/x", "count": "x"}, "unable to convert to int"},
		{Args{"dest": []any{1}}, "argument 'dest' is of type <class 'list'>"},
	} {
		_, err := copySpec.Decode(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
}

func TestParseBool(t *testing.T) {
	for _, s := range []any{"yes", "On", "TRUE", "1", "y", "t", 1, true} {
		if b, err := ParseBool(s); err != nil || !b {
			t.Errorf("%v: %v %v", s, b, err)
		}
	}
	for _, s := range []any{"no", "Off", "false", "0", "n", "f", 0, false} {
		if b, err := ParseBool(s); err != nil || b {
			t.Errorf("%v: %v %v", s, b, err)
		}
	}
}
