// Package hostile makes hostile inputs for the tests of tender's loaders
// and evaluators: documents built to cost unbounded time or memory if a
// loader walks them naively.
package hostile

import "strings"

// YAMLBomb returns a "billion laughs" YAML mapping, indented by indent spaces:
// keys a0..a<levels>, each aN a list of nine aliases of aN-1, so that
// a<levels> stands for 9^(levels+1) strings. Tests of every loader use it.
func YAMLBomb(levels int, indent string) string {
	var b strings.Builder
	b.WriteString(indent + `a0: &a0 ["{{ x }}", b, c, d, e, f, g, h, i]` + "\n")
	for i := 1; i <= levels; i++ {
		prev := "*a" + itoa(i-1)
		b.WriteString(indent + "a" + itoa(i) + ": &a" + itoa(i) + " [" + strings.Repeat(prev+", ", 8) + prev + "]\n")
	}
	return b.String()
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

// TreeSize counts the values v stands for when walked as a tree (every
// element of a []any and every value of a map[string]any, shared ones as
// often as they are reached), as copies and template checks walk them;
// it stops counting past limit. Tests use it to assert that what a loader
// returns stays bounded.
func TreeSize(v any, limit int) int {
	n := 1
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			if n += TreeSize(x, limit-n); n > limit {
				return n
			}
		}
	case map[string]any:
		for _, x := range v {
			if n += TreeSize(x, limit-n); n > limit {
				return n
			}
		}
	}
	return n
}
