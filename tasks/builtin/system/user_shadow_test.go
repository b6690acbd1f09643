package system

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShadowLookup runs user.sh's _t_shadow on a shadow file longer than
// what the shell reads itself, for names before and past that line, a
// last line without its newline, a missing name and a name that would
// match as a pattern.
func TestShadowLookup(t *testing.T) {
	fn := regexp.MustCompile(`(?ms)^_t_shadow\(\) \{.*?^\}\n`).FindString(userScript)
	if fn == "" {
		t.Fatal("user.sh has no _t_shadow")
	}
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "user%d:$6$x%d:19000:0:99999:7:::\n", i, i)
	}
	b.WriteString("last:!:1:2:3:4:5:6:")
	shadow := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(shadow, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	fn = strings.ReplaceAll(fn, "/etc/shadow", shadow)
	cases := map[string]string{
		"user1": "user1:$6$x1:19000:0:99999:7:::", "user256": "user256:$6$x256:19000:0:99999:7:::",
		"user257": "user257:$6$x257:19000:0:99999:7:::", "user300": "user300:$6$x300:19000:0:99999:7:::",
		"last": "last:!:1:2:3:4:5:6:", "nobody": "", "user1*": "",
	}
	for name, want := range cases {
		out, err := exec.Command("sh", "-c", fn+`_t_shadow "$1"; printf %s "$_s"`, "sh", name).CombinedOutput()
		if err != nil || string(out) != want {
			t.Errorf("_t_shadow %q = %q (%v), want %q", name, out, err, want)
		}
	}
}
