package shared

import (
	"reflect"
	"testing"
)

func TestReadNetrc(t *testing.T) {
	text := "# hosts\nmachine a.example login ann password \"p w\" # trailing\n" +
		"machine b.example\n  user bob\n  account x\n  password b\\ 2\n" +
		"macdef init\ncd /pub\n\ndefault login anon password guest\n"
	got, err := readNetrc(text, "f", nil)
	want := map[string][2]string{"a.example": {"ann", "p w"}, "b.example": {"bob", "b 2"}, "default": {"anon", "guest"}}
	if err != "" || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v %q", got, err)
	}
	for text, msg := range map[string]string{
		"\n\nbogus y\n":                     "bad toplevel token 'bogus' (f, line 3)",
		"machine a\n login x\n port 21\n":   "bad follower token 'port' (f, line 3)",
		"machine":                           "missing 'machine' name (f, line 1)",
		"macdef m\nline one\nline two":      "Macro definition missing null line terminator. (f, line 3)",
		"machine a login x password y\n":    "",
		"machine a login root password y\n": "denied (None, line None)",
	} {
		_, got := readNetrc(text, "f", func(login string) string {
			if login == "root" {
				return "denied"
			}
			return ""
		})
		if got != msg {
			t.Errorf("%q: got %q, want %q", text, got, msg)
		}
	}
}
