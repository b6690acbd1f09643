package yaml11

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// mergeChain is a mapping of keys keys, then links anchors each merging
// the one before: the last stands for keys pairs, and the document for
// links times that many.
func mergeChain(keys, links int) string {
	var b strings.Builder
	b.WriteString("m0: &m0 {")
	for i := range keys {
		fmt.Fprintf(&b, "k%d: %d, ", i, i)
	}
	b.WriteString("}\n")
	for i := 1; i <= links; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: *m%d, own%d: x}\n", i, i, i-1, i)
	}
	return b.String()
}

// TestMergeChainBounded: anchors that each merge the one before are
// converted once each, their expansion counted against the alias budget:
// a 40 kB chain standing for millions of values is refused at once (it
// took minutes, copying every merged mapping again at every link), and a
// small one converts with the keys PyYAML gives.
func TestMergeChainBounded(t *testing.T) {
	start := time.Now()
	_, err := Vars([]byte(mergeChain(1000, 1000)), "chain.yml")
	var ye *Error
	if !errors.As(err, &ye) || !strings.Contains(ye.Msg, "aliases expand to more than") {
		t.Fatalf("err = %v, want the alias budget's error", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("refusing the chain took %v", took)
	}
	v, err := Vars([]byte(mergeChain(50, 50)), "chain.yml")
	if err != nil {
		t.Fatal(err)
	}
	last := v["m50"].(map[string]any)
	if len(last) != 100 || last["k49"] != 49 || last["own50"] != "x" || last["own1"] != "x" {
		t.Errorf("m50 has %d keys: %v", len(last), last)
	}
}
