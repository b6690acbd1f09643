package hostpattern

import (
	"errors"
	"strings"
	"testing"
)

// names is a Source of host names: groups all, ungrouped, web (w1 w2
// w3), db (d1 d2) and prod (w1 d1), hosts in that order.
type names struct{}

var groups = map[string][]string{"all": {"w1", "w2", "w3", "d1", "d2"}, "ungrouped": nil,
	"web": {"w1", "w2", "w3"}, "db": {"d1", "d2"}, "prod": {"w1", "d1"}}

func (names) Groups() []string                 { return []string{"all", "ungrouped", "db", "prod", "web"} }
func (names) GroupHosts(g string) []string     { return groups[g] }
func (names) Hosts() []string                  { return groups["all"] }
func (names) Name(h string) string             { return h }
func (names) Implicit(n string) (string, bool) { return n, IsLocalhost(n) }
func (names) Host(n string) (string, bool) {
	for _, h := range groups["all"] {
		if h == n {
			return h, true
		}
	}
	return "", false
}

// TestEvaluate: the cases were checked with ansible 2.14's
// `ansible -i INVENTORY PATTERN --list-hosts` on the same groups.
func TestEvaluate(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{"all", "w1 w2 w3 d1 d2"},
		{"", "w1 w2 w3 d1 d2"},
		{"web:db", "w1 w2 w3 d1 d2"},
		{"db,web", "d1 d2 w1 w2 w3"},
		{"web:&prod", "w1"},
		{"!prod:web", "w2 w3"}, // plain terms first, whatever the order
		{"all:!web:&prod", "d1"},
		{"w*", "w1 w2 w3"},
		{"?1", "w1 d1"},
		{"[wd]2", "w2 d2"},
		{"~[wd][13]", "w1 w3 d1"},
		{"~W", ""},
		{"web[0]", "w1"},
		{"web[-1]", "w3"},
		{"web[1:]", "w2 w3"},
		{"web[0:1]", "w1 w2"},
		{"web[1-2]", "w2 w3"},
		{"web[5:9]", ""},
		{"web[99999999999999999999:]", ""},
		{"localhost", "localhost"},
		{"nosuch", ""},
	} {
		res, err := Evaluate[string](names{}, Split(c.pattern))
		if err != nil || strings.Join(res.Hosts, " ") != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.pattern, res.Hosts, err, c.want)
		}
	}
}

func TestEvaluateReports(t *testing.T) {
	res, err := Evaluate[string](names{}, Split("web[0-1]:web[1-2]:nosuch:!gone"))
	if err != nil || strings.Join(res.Hosts, " ") != "w1 w2 w3" {
		t.Fatalf("%v %v", res.Hosts, err)
	}
	if strings.Join(res.Warnings, "|") != oldRangeWarning {
		t.Errorf("warnings: %q", res.Warnings)
	}
	if strings.Join(res.Unmatched, " ") != "nosuch !gone" {
		t.Errorf("unmatched: %q", res.Unmatched)
	}
	for _, p := range []string{"web[3]", "web[-4]", "db[5:0]", "&web[9]"} {
		_, err := Evaluate[string](names{}, Split(p))
		var se *SubscriptError
		want := "No hosts matched the subscripted pattern '" + strings.TrimLeft(p, "&") + "'"
		if !errors.As(err, &se) || err.Error() != want {
			t.Errorf("%s: %v, want %s", p, err, want)
		}
	}
	if _, err := Evaluate[string](names{}, []string{"~web("}); err == nil || err.Error() != "Invalid host list pattern: ~web(" {
		t.Errorf("a bad regular expression: %v", err)
	}
	if res, err := Evaluate[string](names{}, Split("nosuch[0]")); err != nil || len(res.Hosts) != 0 {
		t.Errorf("a subscript of nothing is nothing: %v %v", res.Hosts, err)
	}
}

func TestSplit(t *testing.T) {
	for in, want := range map[string]string{
		"web:db":           "web|db",
		"web, db ,":        "web|db",
		"fe80::1":          "fe80::1",
		"host:22":          "host:22",
		"web[1:3]":         "web[1:3]",
		"web[1:3]:db":      "web[1:3]|db",
		"a b":              "a|b",
		"[::1]:2222":       "[::1]:2222",
		"web:!db:&prod[0]": "web|!db|&prod[0]",
	} {
		if got := strings.Join(Split(in), "|"); got != want {
			t.Errorf("Split(%q) = %q, want %q", in, got, want)
		}
	}
}
