package tasks

import (
	"errors"
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
	// A list or a dict given for a string is its Python text, as Ansible
	// converts it.
	got, err = copySpec.Decode(Args{"dest": []any{7, "a"}, "src": map[string]any{"k": true}})
	if err != nil || got.Str("dest") != "[7, 'a']" || got.Str("src") != "{'k': True}" {
		t.Fatalf("list/dict to str: %#v %v", got, err)
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
		// Ansible's validator reports the first failing check in its
		// order: missing before a type, a type before a choice, a choice
		// before an unsupported parameter.
		{Args{"count": "x"}, "missing required arguments: dest"},
		{Args{"dest": "/x", "count": "x", "state": "dir"}, "unable to convert to int"},
		{Args{"dest": "/x", "state": "dir", "bogus": 1}, "value of state must be one of"},
		{Args{"bogus": 1}, "missing required arguments: dest"},
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

func TestDecodeMore(t *testing.T) {
	spec := Spec{
		Module:   "x",
		FreeForm: true,
		Params: []Param{
			{Name: "ports", Kind: List, Elements: Int},
			{Name: "ratio", Kind: Float},
			{Name: "any", Kind: Raw},
			{Name: "a"}, {Name: "b"},
			{Name: "level", Kind: List, Choices: []string{"x", "y"}},
		},
		RequiredOneOf: [][]string{{"a", "b"}},
	}
	got, err := spec.Decode(Args{"_raw_params": "echo hi", "ports": "80,443", "ratio": "0.5", "any": []any{1}, "a": true, "level": "x,y"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Str("_raw_params") != "echo hi" || !reflect.DeepEqual(got.List("ports"), []any{80, 443}) || got.Float("ratio") != 0.5 || got.Str("a") != "True" {
		t.Fatalf("%#v", got)
	}
	if _, err := spec.Decode(Args{"ports": "80"}); err == nil || err.Error() != "one of the following is required: a, b" {
		t.Fatal(err)
	}
	if _, err := spec.Decode(Args{"a": "1", "level": []any{"z"}}); err == nil || !strings.Contains(err.Error(), "value of level must be one of: x, y") {
		t.Fatal(err)
	}
	_, err = spec.Decode(Args{"a": "1", "zzzzzzzz": 1})
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Unknown[0] != "zzzzzzzz" || strings.Contains(err.Error(), "Did you mean") {
		t.Fatalf("%v", err)
	}
	if d, err := parseDictString(`{"a": 1}`); err != nil || d["a"] != float64(1) {
		t.Fatal(d, err)
	}
	if ToText(false) != "False" || ToText(1.5) != "1.5" || ToText(3) != "3" || ToText(1.0) != "1.0" {
		t.Fatal("ToText")
	}
}

// TestSplitDictFields: check_type_dict's fields, as ansible-core splits
// them: unquoted commas and spaces, quotes dropped, backslash escapes.
func TestSplitDictFields(t *testing.T) {
	for in, want := range map[string][]string{
		"a=1, b='x y' c=\"p,q\"": {"a=1", "b=x y", "c=p,q"},
		`k=a\,b  ,,j=\'`:         {`k=a,b`, `j='`},
		"  ":                     nil,
	} {
		if got := SplitDictFields(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitDictFields(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestValidArgs: an action plugin's spec (ValidArgs) refuses an option it
// does not take first, in the words of Ansible's _VALID_ARGS check and
// naming the action as the task wrote it; a module's spec says
// "Unsupported parameters".
func TestValidArgs(t *testing.T) {
	s := &Spec{Module: "debug", ValidArgs: true, Params: []Param{{Name: "msg"}, {Name: "verbosity", Kind: Int}}}
	_, err := s.DecodeFor("ansible.builtin.debug", Args{"msg": "x", "foo": 1, "bar": 2, "verbosity": "nope"})
	if err == nil || err.Error() != "Invalid options for ansible.builtin.debug: bar,foo" {
		t.Errorf("got %v", err)
	}
	if _, err := s.Decode(Args{"foo": 1}); err == nil || err.Error() != "Invalid options for debug: foo" {
		t.Errorf("got %v", err)
	}
	s.ValidArgs = false
	if _, err := s.Decode(Args{"foo": 1}); err == nil || !strings.HasPrefix(err.Error(), "Unsupported parameters for (debug) module: foo") {
		t.Errorf("got %v", err)
	}
}

// TestAsWritten: an unsupported parameter's message names the module as
// the task wrote it, as Ansible's does (file, ansible.builtin.file,
// community.general.make); other errors pass unchanged.
func TestAsWritten(t *testing.T) {
	s := &Spec{Module: "make", Params: []Param{{Name: "chdir"}}}
	_, err := s.Decode(Args{"chdir": "/", "verbose": true})
	for action, want := range map[string]string{"": "(make) module", "make": "(make) module",
		"community.general.make": "(community.general.make) module"} {
		if got := AsWritten(err, action).Error(); !strings.HasPrefix(got, "Unsupported parameters for "+want+": verbose.") {
			t.Errorf("%q: %s", action, got)
		}
	}
	other := errors.New("x")
	if AsWritten(other, "a.b.c") != other {
		t.Error("another error changed")
	}
}
