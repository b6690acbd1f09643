package system

import "testing"

// TestLimitEditApply checks pam_limits' rewriting rules: tab-separated
// lines, comments inherited from the first commented limit line, the
// comment prefix added once per rewritten line, use_max and use_min, a
// file without a final newline, and a bad value in the file.
func TestLimitEditApply(t *testing.T) {
	e := func(d, ty, it, v string) limitEdit { return limitEdit{domain: d, typ: ty, item: it, value: v} }
	withMax := func(l limitEdit) limitEdit { l.useMax = true; return l }
	withMin := func(l limitEdit) limitEdit { l.useMin = true; return l }
	withComment := func(l limitEdit, c string) limitEdit { l.comment = c; return l }
	cases := []struct {
		name, text string
		edit       limitEdit
		after, msg string
		changed    bool
		fail       string
	}{
		{"append", "# c\n\n", e("joe", "soft", "nofile", "10"), "# c\n\njoe\tsoft\tnofile\t10\n", "joe\tsoft\tnofile\t10\n", true, ""},
		{"empty", "", withComment(e("joe", "-", "core", "0"), "x"), "joe\t-\tcore\t0\t#x\n", "joe\t-\tcore\t0\t#x\n", true, ""},
		{"same", "joe  soft nofile 10  \n", e("joe", "soft", "nofile", "10"), "joe  soft nofile 10  \n", "joe  soft nofile 10  \n", false, ""},
		{"change", "joe soft nofile 10\n", e("joe", "soft", "nofile", "20"), "joe\tsoft\tnofile\t20\n", "joe\tsoft\tnofile\t20\n", true, ""},
		{"inherit", "a soft core 1 # one\nb hard core 2 #two\n", e("c", "soft", "core", "3"),
			"a soft core 1 # one\nb hard core 2 #two\nc\tsoft\tcore\t3\t# one\n\n", "c\tsoft\tcore\t3\t# one\n\n", true, ""},
		{"indented comment", "  # note\n", e("c", "soft", "core", "3"), "  # note\nc\tsoft\tcore\t3\t# note\n\n", "c\tsoft\tcore\t3\t# note\n\n", true, ""},
		{"twice", "a soft core 1\na soft core 2\n", withComment(e("a", "soft", "core", "5"), "t"),
			"a\tsoft\tcore\t5\t#t\na\tsoft\tcore\t5\t#\t#t\n", "a\tsoft\tcore\t5\t#\t#t\n", true, ""},
		{"no newline", "a soft core 1", e("b", "soft", "core", "2"), "a soft core 1b\tsoft\tcore\t2\n", "b\tsoft\tcore\t2\n", true, ""},
		{"max keeps", "a soft core 10\n", withMax(e("a", "soft", "core", "5")), "a soft core 10\n", "a soft core 10\n", false, ""},
		{"max raises", "a soft core 10\n", withMax(e("a", "soft", "core", "50")), "a\tsoft\tcore\t50\n", "a\tsoft\tcore\t50\n", true, ""},
		{"max unlimited", "a soft core -1\n", withMax(e("a", "soft", "core", "50")), "a soft core -1\n", "a soft core -1\n", false, ""},
		{"min unlimited", "a soft core infinity\n", withMin(e("a", "soft", "core", "5")), "a\tsoft\tcore\t5\n", "a\tsoft\tcore\t5\n", true, ""},
		{"min keeps", "a soft core 3\n", withMin(e("a", "soft", "core", "unlimited")), "a soft core 3\n", "a soft core 3\n", false, ""},
		{"min signed", "a soft nice 5\n", withMin(e("a", "soft", "nice", "+2")), "a\tsoft\tnice\t2\n", "a\tsoft\tnice\t2\n", true, ""},
		{"odd lines kept", "x y z\nx y z w v\n", e("a", "soft", "core", "1"), "x y z\nx y z w v\na\tsoft\tcore\t1\n", "a\tsoft\tcore\t1\n", true, ""},
		{"bad in file", "a soft nofile many\n", e("b", "soft", "core", "1"), "", "", false,
			"Invalid configuration found in '/f'. Value of 'many' for item 'nofile' is invalid. Value must either be 'unlimited', " +
				"'infinity' or -1, all of which indicate no limit, or a limit of 0 or larger. Refer to the limits.conf(5) manual pages for more details."},
	}
	for _, c := range cases {
		after, changed, msg, fail := c.edit.apply("/f", c.text)
		if after != c.after || changed != c.changed || msg != c.msg || fail != c.fail {
			t.Errorf("%s: got %q %v %q %q, want %q %v %q %q", c.name, after, changed, msg, fail, c.after, c.changed, c.msg, c.fail)
		}
	}
}

// TestLimitValueError checks which values pam_limits accepts and its
// messages.
func TestLimitValueError(t *testing.T) {
	ok := [][2]string{{"nofile", "0"}, {"nofile", "unlimited"}, {"core", "infinity"}, {"as", "-1"}, {"nice", "-20"},
		{"priority", "19"}, {"nice", " +5 "}, {"nice", "1_0"}}
	for _, c := range ok {
		if m := limitValueError(c[0], c[1], ""); m != "" {
			t.Errorf("%v: %s", c, m)
		}
	}
	bad := [][2]string{{"nofile", "-2"}, {"nofile", ""}, {"nofile", "1.5"}, {"nice", "20"}, {"priority", "-21"},
		{"nice", "x"}, {"nice", "1__0"}, {"nice", "--1"}, {"nice", ""}}
	for _, c := range bad {
		if m := limitValueError(c[0], c[1], ""); m == "" {
			t.Errorf("%v accepted", c)
		}
	}
	want := ` Value of "it's" for item 'nice' is invalid. Value must be a number in the range -20 to 19 inclusive. ` +
		`Refer to the limits.conf(5) manual pages for more details.`
	if m := limitValueError("nice", "it's", ""); m != want {
		t.Errorf("got %q", m)
	}
}

// TestPyDirname checks os.path.dirname's rules, which decide the
// directory pam_limits must find writable.
func TestPyDirname(t *testing.T) {
	for in, want := range map[string]string{"/etc/x.conf": "/etc", "x.conf": "", "/x": "/", "a//b": "a", "//x": "//", "a/b/": "a/b"} {
		if got := pyDirname(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}
