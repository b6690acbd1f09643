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
