package ssh

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrameWorkDirs: each frame finds in $__tender_w an empty directory
// no other frame of the shell was given, also past the sweeps of the
// private directory (every workDirs frames), which leave the stop tokens
// of queued frames (s...) alone; the directories are mode 700 and go
// with the private directory when the shell exits.
func TestFrameWorkDirs(t *testing.T) {
	const frames = 2*workDirs + 5
	for _, argv := range localShells() {
		tmp := t.TempDir()
		var f []byte
		var bs []string
		for i := range frames {
			b := fmt.Sprintf("__W%d_", i)
			bs = append(bs, b)
			cmd := `( [ -d "$__tender_w" ] || exit 3
set -- "$__tender_w"/* "$__tender_w"/.[!.]*
for x; do [ -e "$x" ] && exit 4; done
: >"$__tender_w/used"; mkdir "$__tender_w/sub"
had=0; [ -d "$__tender_d/stoken" ] && had=1
[ "$had" = 1 ] || mkdir "$__tender_d/stoken"
printf '%s %s %s\n' "$had" "$(stat -c %a "$__tender_w")" "$__tender_w" )`
			f = append(f, subshellFrame(b, cmd, " l", false)...)
		}
		f = append(f, "printf 'DIR %s\\n' \"$__tender_d\"\n"...)
		t.Setenv("TMPDIR", tmp)
		sh := runFrames(t, argv, true, f)
		seen := map[string]int{}
		var dir string
		for i, b := range bs {
			res, _, err := sh.answer(b, 1<<20)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("%s frame %d: rc %d (%v)", argv[0], i, res.ExitCode, err)
			}
			var had int
			var mode, w string
			fmt.Sscanf(string(res.Stdout), "%d %s %s", &had, &mode, &w)
			if (had == 1) != (i > 0) || mode != "700" {
				t.Errorf("%s frame %d: stop token there %v, mode %s", argv[0], i, had == 1, mode)
			}
			dir = filepath.Dir(w)
			if j, ok := seen[w]; ok && i-j < workDirs {
				t.Errorf("%s: frames %d and %d share %s", argv[0], j, i, w)
			}
			seen[w] = i
		}
		if len(seen) != workDirs {
			t.Errorf("%s: %d work directories, want %d", argv[0], len(seen), workDirs)
		}
		if !strings.HasPrefix(dir, tmp+"/.tender.") {
			t.Errorf("%s: private directory %s, not in TMPDIR %s", argv[0], dir, tmp)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%s: left in TMPDIR after exit: %v", argv[0], left)
		}
	}
}
