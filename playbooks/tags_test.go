package playbooks

import "testing"

// The expectations follow ansible-core 2.14's Taggable.evaluate_tags.
func TestTagFilter(t *testing.T) {
	cases := []struct {
		tags       []string
		only, skip []string
		want       bool
	}{
		{nil, nil, nil, true},
		{[]string{"x"}, nil, nil, true},
		{[]string{"never"}, nil, nil, false},
		{[]string{"never", "debug"}, []string{"debug"}, nil, true},
		{[]string{"always"}, []string{"other"}, nil, true},
		{[]string{"always"}, nil, []string{"always"}, false},
		{[]string{"always"}, nil, []string{"all"}, true},
		{[]string{"always"}, nil, []string{"all", "always"}, false},
		{[]string{"x"}, []string{"y"}, nil, false},
		{[]string{"x", "y"}, []string{"y"}, nil, true},
		{nil, []string{"untagged"}, nil, true},
		{nil, []string{"tagged"}, nil, false},
		{[]string{"x"}, []string{"tagged"}, nil, true},
		{[]string{"never"}, []string{"tagged"}, nil, false},
		{[]string{"x"}, nil, []string{"x"}, false},
		{[]string{"x"}, nil, []string{"tagged"}, false},
		{nil, nil, []string{"tagged"}, true},
		{nil, nil, []string{"untagged"}, false},
		{[]string{"x"}, nil, []string{"all"}, false},
		{[]string{"x"}, []string{"x"}, []string{"x"}, false},
	}
	for _, c := range cases {
		if got := (TagFilter{Only: c.only, Skip: c.skip}).Selects(c.tags); got != c.want {
			t.Errorf("tags %v --tags %v --skip-tags %v: got %v, want %v", c.tags, c.only, c.skip, got, c.want)
		}
	}
}
