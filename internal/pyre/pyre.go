// Package pyre runs Python regular expressions (the re module that
// Ansible's modules and filters use) with Python's syntax and semantics,
// on github.com/dlclark/regexp2, a backtracking engine of .NET's syntax:
// it translates a pattern as Python 3.11's parser reads it (refusing what
// Python refuses, with Python's messages), matches as re.search,
// re.match, re.fullmatch and re.finditer do (empty matches included),
// and expands re.sub's replacement templates (\1, \g<name>). Every match
// is bounded in time (Options.Timeout) and in backtracking memory
// (MaxBacktrack), past which it fails with an error naming the pattern.
// It imports nothing of tender's.
package pyre

import (
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// Options are the flags a pattern is compiled with, and its bounds.
type Options struct {
	IgnoreCase bool // re.IGNORECASE
	Multiline  bool // re.MULTILINE
	DotAll     bool // re.DOTALL
	Verbose    bool // re.VERBOSE
	ASCII      bool // re.ASCII
	// Bytes: the pattern and the texts are bytes, as a Python bytes
	// pattern (to_bytes(pattern)) on bytes: each byte is one character
	// and \d \s \w \b are ASCII's (lineinfile, blockinfile, wait_for).
	// Otherwise they are text, and \d \s \w \b Unicode's.
	Bytes bool
	// Timeout bounds each search (one call of Search, Match, FullMatch,
	// or one match found by Each): 0 means DefaultTimeout, a negative
	// value no bound.
	Timeout time.Duration
}

// DefaultTimeout is the time one search may take. Real patterns take
// micro- to milliseconds on real texts; one that backtracks
// catastrophically ((a+)+$ on a long line of a's) would take Python
// minutes or years.
const DefaultTimeout = time.Second

// MaxBacktrack bounds the positions a search keeps to backtrack to, in
// regexp2's slots (8 bytes each: 32 MiB): a repeat of a group keeps
// about six a repetition, so (a|b)* matches some 700,000 characters
// (Python has no such bound).
const MaxBacktrack = 1 << 22

// Regexp is a compiled Python pattern. It is safe for concurrent use.
type Regexp struct {
	pattern string
	net     string // the translation, regexp2's syntax
	opts    regexp2.RegexOptions
	bytes   bool
	global  flags // the pattern's flags, given and inline
	ngroups int
	names   map[string]int
	timeout time.Duration
	literal string // the text the pattern matches when it is nothing but that text, else ""

	search *regexp2.Regexp
	// variants compiled when first needed: anchored at the start of the
	// search (re.match), that and not empty (finditer after an empty
	// match), anchored at both ends (re.fullmatch)
	once     [3]sync.Once
	variants [3]*regexp2.Regexp
	errs     [3]error
}

// Compile translates and compiles a Python pattern.
func Compile(pattern string, o Options) (*Regexp, error) {
	p := &parser{bytes: o.Bytes, groups: []group{{closed: true}}, names: map[string]int{}, condRefs: map[int]int{}, lookbehind: -1}
	if o.Bytes {
		p.src = make([]rune, len(pattern))
		for i := 0; i < len(pattern); i++ {
			p.src[i] = rune(pattern[i])
		}
	} else {
		p.src = []rune(pattern)
	}
	var f flags
	for _, x := range []struct {
		on bool
		f  flags
	}{{o.IgnoreCase, flagI}, {o.Multiline, flagM}, {o.DotAll, flagS}, {o.Verbose, flagX}, {o.ASCII, flagA}} {
		if x.on {
			f |= x.f
		}
	}
	p.flags = f
	net, _, _, err := p.alternation(f, f&flagX != 0, 0)
	if err != nil {
		return nil, p.trailingEscape(err)
	}
	if p.more() {
		return nil, p.errorf("unbalanced parenthesis")
	}
	for g, pos := range p.condRefs {
		if g >= len(p.groups) {
			return nil, p.errAt(pos, "invalid group reference %d", g)
		}
	}
	if !o.Bytes && p.flags&flagA != 0 && p.flags&flagU != 0 {
		return nil, fmt.Errorf("regular expression %q: ASCII and UNICODE flags are incompatible", pattern)
	}
	re := &Regexp{pattern: pattern, net: net, bytes: o.Bytes, global: p.flags, ngroups: len(p.groups) - 1, names: p.names, timeout: o.Timeout}
	if !p.complex && p.flags&flagI == 0 {
		re.literal = literalText(p.lits, o.Bytes)
	}
	if re.timeout == 0 {
		re.timeout = DefaultTimeout
	}
	if p.flags&flagI != 0 {
		re.opts |= regexp2.IgnoreCase
	}
	if p.flags&flagM != 0 {
		re.opts |= regexp2.Multiline
	}
	if p.flags&flagS != 0 {
		re.opts |= regexp2.Singleline
	}
	if re.search, err = re.compile(net); err != nil {
		return nil, err
	}
	return re, nil
}

// compile compiles a translation with the pattern's options and bounds.
func (re *Regexp) compile(net string) (*regexp2.Regexp, error) {
	c, err := regexp2.Compile(net, re.opts, regexp2.OptionMaxBacktrackingStackSize(MaxBacktrack))
	if err != nil {
		// a construct the translation lets through and regexp2 refuses
		return nil, fmt.Errorf("regular expression %q: %v", re.pattern, err)
	}
	if re.timeout > 0 {
		c.MatchTimeout = re.timeout
	}
	return c, nil
}

const (
	anchoredVariant = iota
	nonEmptyVariant
	fullVariant
)

// variant compiles (once) the pattern anchored at the start of the
// search (\G), not empty there, or anchored at both ends.
func (re *Regexp) variant(v int) (*regexp2.Regexp, error) {
	re.once[v].Do(func() {
		net := `\G(?:` + re.net + `)`
		switch v {
		case nonEmptyVariant:
			net += `(?!\G)`
		case fullVariant:
			net += `\z`
		}
		re.variants[v], re.errs[v] = re.compile(net)
	})
	return re.variants[v], re.errs[v]
}

// String is the Python pattern.
func (re *Regexp) String() string { return re.pattern }

// NumSubexp is the number of groups.
func (re *Regexp) NumSubexp() int { return re.ngroups }

// SubexpIndex is the number of the group named name, -1 when none is.
func (re *Regexp) SubexpIndex(name string) int {
	if g, ok := re.names[name]; ok {
		return g
	}
	return -1
}

// SubexpNames are the groups' names by number ("" for the whole match
// and for groups without a name), as regexp's.
func (re *Regexp) SubexpNames() []string {
	out := make([]string, re.ngroups+1)
	for n, g := range re.names {
		out[g] = n
	}
	return out
}

// Multiline reports whether the pattern runs with MULTILINE, given or
// inline ((?m) at its start): blockinfile searches the whole file then.
func (re *Regexp) Multiline() bool { return re.global&flagM != 0 }

// MustCompile is Compile for patterns of tender's own, which must
// compile.
func MustCompile(pattern string, o Options) *Regexp {
	re, err := Compile(pattern, o)
	if err != nil {
		panic(err)
	}
	return re
}

// literalText is the text of a pattern made of the characters lits
// only, "" when it cannot be searched as plain text: empty, or holding
// U+FFFD, which also matches an invalid byte of the text.
func literalText(lits []rune, bytes bool) string {
	b := make([]byte, 0, len(lits))
	for _, r := range lits {
		switch {
		case bytes:
			b = append(b, byte(r))
		case r == utf8.RuneError || (r >= 0xd800 && r <= 0xdfff):
			return ""
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}
