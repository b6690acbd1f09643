package ssh

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrameWorkDirs: each frame is given in $__tender_w a path of its own
// in the shell's private directory, where nothing is; what frames make
// there is removed by the sweep of the private directory (every 64
// frames: at most 64 are ever there), which leaves the stop tokens of
// queued frames (s...) alone, and goes with the private directory when
// the shell exits.
func TestFrameWorkDirs(t *testing.T) {
	const frames = 2*64 + 5
	for _, argv := range localShells() {
		tmp := t.TempDir()
		var f []byte
		var bs []string
		for i := range frames {
			b := fmt.Sprintf("__W%d_", i)
			bs = append(bs, b)
			cmd := `( [ "${__tender_w%/*}" = "$__tender_d" ] && ! [ -e "$__tender_w" ] || exit 3
mkdir "$__tender_w" && : >"$__tender_w/used" || exit 4
had=0; [ -d "$__tender_d/stoken" ] && had=1
[ "$had" = 1 ] || mkdir "$__tender_d/stoken"
n=0; for x in "$__tender_d"/w*; do n=$((n + 1)); done
printf '%s %s %s\n' "$had" "$n" "$__tender_w" )`
			f = append(f, subshellFrame(b, cmd, " l", false, false)...)
		}
		t.Setenv("TMPDIR", tmp)
		sh := runFrames(t, argv, true, f)
		seen := map[string]bool{}
		var dir string
		for i, b := range bs {
			res, _, err := sh.answer(b, 1<<20)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("%s frame %d: rc %d (%v)", argv[0], i, res.ExitCode, err)
			}
			var had, n int
			var w string
			fmt.Sscanf(string(res.Stdout), "%d %d %s", &had, &n, &w)
			if (had == 1) != (i > 0) || n < 1 || n > 64 {
				t.Errorf("%s frame %d: stop token there %v, %d work directories", argv[0], i, had == 1, n)
			}
			if seen[w] {
				t.Errorf("%s frame %d: %s given before", argv[0], i, w)
			}
			seen[w] = true
			dir = filepath.Dir(w)
		}
		if !strings.HasPrefix(dir, tmp+"/.tender.") {
			t.Errorf("%s: private directory %s, not in TMPDIR %s", argv[0], dir, tmp)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%s: left in TMPDIR after exit: %v", argv[0], left)
		}
	}
}
