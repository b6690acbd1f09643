package packages

import (
	"reflect"
	"testing"
)

// TestRecoverPipNames joins the pieces that splitting on commas cut off a
// requirement, as Ansible's pip does.
func TestRecoverPipNames(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"django>1.11.1", "<1.11.3", "ipaddress", "simpleproject>1.1.0", "<2.0.0"}, []string{"django>1.11.1,<1.11.3", "ipaddress", "simpleproject>1.1.0,<2.0.0"}},
		{[]string{"django>1.11.1,<1.11.3,ipaddress", "simpleproject>1.1.0,<2.0.0"}, []string{"django>1.11.1,<1.11.3", "ipaddress", "simpleproject>1.1.0,<2.0.0"}},
		{[]string{"pkg[a", "b]>=1", "other"}, []string{"pkg[a,b]>=1", "other"}},
		{[]string{"one"}, []string{"one"}},
	} {
		if got := recoverPipNames(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPipReq parses requirements, prints them as setuptools does and
// tests versions against their specifiers.
func TestPipReq(t *testing.T) {
	for _, c := range []struct {
		in, str, key string
		plain        bool
		yes, no      []string
	}{
		{"tender-greet>=1.0,<3", "tender-greet<3,>=1.0", "tender-greet", true, []string{"1.0", "2.0", "2.9.9", "3.0rc1"}, []string{"0.9", "3", "3.0.0"}},
		{"Tender_Greet == 1.0", "Tender_Greet==1.0", "tender-greet", true, []string{"1.0", "1.0.0", "1"}, []string{"1.0.1", "2.0"}},
		{"pkg[b, a]~=1.4.2; python_version > '3'", "pkg[a,b]~=1.4.2; python_version > '3'", "pkg", true, []string{"1.4.2", "1.4.9"}, []string{"1.5.0", "1.4.1"}},
		{"pkg==1.*", "pkg==1.*", "pkg", true, []string{"1.0", "1.9.3"}, []string{"2.0", "0.1"}},
		{"pkg!=2.0", "pkg!=2.0", "pkg", true, []string{"1.0", "2.0.1"}, []string{"2.0", "2"}},
		{"pkg>1.0", "pkg>1.0", "pkg", true, []string{"1.0.1", "1.1a1", "1.0.post1"}, []string{"1.0", "0.9", "1.0a1"}},
		{"pkg<=1.0", "pkg<=1.0", "pkg", true, []string{"1.0", "1.0rc2", "1.0.dev1"}, []string{"1.0.post1", "1.1"}},
		{"pkg", "pkg", "pkg", true, []string{"0", "9.9"}, nil},
		{"git+https://example.invalid/pkg.git", "git+https://example.invalid/pkg.git", "", false, nil, []string{"1.0"}},
		{"./local/dir", "./local/dir", "", false, nil, []string{"1.0"}},
	} {
		r := parsePipReq(c.in)
		if r.String() != c.str || r.key != c.key || r.plain != c.plain {
			t.Errorf("%q: got %q key %q plain %v", c.in, r.String(), r.key, r.plain)
		}
		for _, v := range c.yes {
			if !r.satisfiedBy(v) {
				t.Errorf("%q should be satisfied by %s", c.in, v)
			}
		}
		for _, v := range c.no {
			if r.satisfiedBy(v) {
				t.Errorf("%q should not be satisfied by %s", c.in, v)
			}
		}
	}
}
