package pyini

import (
	"errors"
	"testing"
)

// The answers are Python 3.11's configparser.ConfigParser(
// inline_comment_prefixes=(';',)) reading the same text with read_string,
// as Ansible reads ansible.cfg.
func TestReadAsAnsibleCfg(t *testing.T) {
	src := "[DEFAULT]\nshared = from default\n[defaults]\nforks = 7 ; inline comment\npath = a;b\n" +
		"multi = first\n   second\n\n   third\n; comment line\n  # indented comment\nKey = %(forks)s\n"
	p := New(Options{InlineComments: true, Source: "<string>"})
	if err := p.Read(src); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"forks": "7", "path": "a;b", "multi": "first\nsecond\n\nthird",
		"key": "%(forks)s", "KEY": "%(forks)s", "shared": "from default"} {
		got, found, err := p.GetRaw("defaults", key)
		if err != nil || !found || got != want {
			t.Errorf("GetRaw(defaults, %s) = %q, %v, %v; want %q", key, got, found, err, want)
		}
	}
	if got, _, _ := p.Get("defaults", "key"); got != "7" {
		t.Errorf("Get interpolates: got %q, want 7", got)
	}
	if _, found, err := p.GetRaw("defaults", "nosuch"); found || err != nil {
		t.Errorf("a missing key: found=%v err=%v", found, err)
	}
	var ns *NoSectionError
	if _, _, err := p.GetRaw("nosuch", "x"); !errors.As(err, &ns) || err.Error() != "No section: 'nosuch'" {
		t.Errorf("a missing section: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	for src, want := range map[string]string{
		"forks=1\n":          "File contains no section headers.\nfile: '<string>', line: 1\n'forks=1\\n'",
		"[a]\nx\n":           "Source contains parsing errors: '<string>'\n\t[line  2]: 'x\\n'",
		"[a]\nx=1\nx=2\n":    "While reading from '<string>' [line  3]: option 'x' in section 'a' already exists",
		"[a]\n[b]\n[a]\n":    "While reading from '<string>' [line  3]: section 'a' already exists",
		"[a]\nx=1 ;c\nx=2\n": "While reading from '<string>' [line  3]: option 'x' in section 'a' already exists",
	} {
		err := New(Options{InlineComments: true, Source: "<string>"}).Read(src)
		if err == nil || err.Error() != want {
			t.Errorf("Read(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestInlineCommentsOnlyWhenAsked(t *testing.T) {
	p := New(Options{})
	if err := p.Read("[s]\nk = v ; not a comment\n"); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := p.GetRaw("s", "k"); got != "v ; not a comment" {
		t.Errorf("got %q", got)
	}
}
