package pyre

import (
	"regexp"
	"strings"
	"testing"
)

// The cost of regexp2 against Go's RE2 (which tender used before) on
// what playbooks do: a replace over a large text, a search in a long
// line, and a search that fails.
var benchText = strings.Repeat("ListenAddress 0.0.0.0\n#PermitRootLogin yes\nPort 22\n", 20000)

func BenchmarkReplaceAll(b *testing.B) {
	re, _ := Compile(`(?m)^#?PermitRootLogin\s+\S+$`, Options{})
	tpl, _ := ParseTemplate("PermitRootLogin no", re)
	src := []byte(benchText)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, err := tpl.Subn(re, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplaceAllRE2(b *testing.B) {
	re := regexp.MustCompile(`(?m)^#?PermitRootLogin\s+\S+$`)
	src := []byte(benchText)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		re.ReplaceAll(src, []byte("PermitRootLogin no"))
	}
}

func BenchmarkSearchMiss(b *testing.B) {
	re, _ := Compile(`Port\s+(\d+)x`, Options{})
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		if _, err := re.Search(benchText); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearchMissRE2(b *testing.B) {
	re := regexp.MustCompile(`Port\s+(\d+)x`)
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		re.FindStringSubmatchIndex(benchText)
	}
}

func BenchmarkManyMatches(b *testing.B) {
	re, _ := Compile(`[ab]`, Options{})
	tpl, _ := ParseTemplate("b", re)
	src := []byte(strings.Repeat("a", 1<<20))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, err := tpl.Subn(re, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkManyMatchesRE2(b *testing.B) {
	re := regexp.MustCompile(`[ab]`)
	src := []byte(strings.Repeat("a", 1<<20))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		re.ReplaceAll(src, []byte("b"))
	}
}
