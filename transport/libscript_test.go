package transport

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

func TestLibScriptQuotedOnce(t *testing.T) {
	piece := "tender_test_once() {\n\techo 'it''s'\n}\n"
	a, b := LibScript(piece), LibScript(piece)
	if a != "command eval "+Quote(piece)+"\n" {
		t.Fatalf("LibScript = %q", a)
	}
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatal("the same piece was quoted twice")
	}
	// Past the bound pieces are quoted each time, still right.
	big := strings.Repeat("x", 1<<20)
	for i := range 8 {
		p := fmt.Sprintf("tender_test_big%d() { :; }\n# %s\n", i, big)
		if got := LibScript(p); got != "command eval "+Quote(p)+"\n" {
			t.Fatalf("piece %d quoted wrong", i)
		}
	}
	libScripts.Lock()
	n := libScripts.bytes
	libScripts.Unlock()
	if n > libScriptsMax {
		t.Fatalf("the cache holds %d bytes, more than its bound %d", n, libScriptsMax)
	}
}
