package expr

import (
	"fmt"
	"math/big"
	"testing"
)

// TestPyRandomSequence: seeded with each kind of seed Python takes, the
// generator draws what Python 3.11's random.Random draws (recorded from
// getrandbits(32), getrandbits(70), randrange(1000) and choice of ten).
func TestPyRandomSequence(t *testing.T) {
	huge, _ := new(big.Int).SetString("1180591620717411303429", 10)
	for _, c := range []struct {
		seed any
		want string
	}{
		{0, "3626764237 1046999458949156007870 430 a"},
		{42, "2746317213 867458338436606341503 281 d"},
		{-7, "1390851128 463951277996445748708 666 a"},
		{huge, "2004888747 746629573261074141371 377 f"},
		{"x", "2709212627 711987487668314178216 495 b"},
		{"", "4124137760 250791084936658483516 397 d"},
		{1.5, "2369807148 170744780364576622253 597 h"},
		{true, "577090037 956416341049221797962 782 b"},
		{"héllo", "56709863 144546347208043913723 295 a"},
	} {
		r, err := newPyRandom(c.seed)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%v %v %v %c", r.getrandbits(32), r.getrandbits(70), r.intn(1000), "abcdefghij"[r.intn(10)])
		if got != c.want {
			t.Errorf("Random(%v): got %s, Python %s", c.seed, got, c.want)
		}
	}
	r, _ := newPyRandom("s")
	l := []any{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	r.shuffle(l)
	if got := fmt.Sprint(l); got != "[3 2 1 4 8 0 6 5 9 7]" {
		t.Errorf("Random('s').shuffle: got %s", got)
	}
	for f, want := range map[float64]int64{1.5: 1152921504606846977, -2.75: -1729382256910270466, 1e300: 1224995262755759164} {
		if got := pyFloatHash(f); got != want {
			t.Errorf("hash(%v) = %d, Python %d", f, got, want)
		}
	}
	if _, err := newPyRandom([]any{1}); err == nil {
		t.Error("a list is no seed")
	}
}
