package pyre

import (
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

// namedEscape reads {NAME} after \N: the character of that Unicode name,
// looked up without regard to case as unicodedata.lookup does. Names
// are golang.org/x/text's (the character names, CJK UNIFIED
// IDEOGRAPH-hhhh); Python's aliases (LINE FEED, BYTE ORDER MARK...) and
// the computed names of Hangul syllables are unknown.
func (p *parser) namedEscape(start int) (rune, error) {
	if !p.eat('{') {
		return 0, p.errorf("missing {")
	}
	name, err := p.until('}', "character name")
	if err != nil {
		return 0, err
	}
	if r, ok := lookupName(name); ok {
		return r, nil
	}
	return 0, p.errAt(start, "undefined character name '%s'", name)
}

var (
	namesOnce sync.Once
	names     map[string]rune
)

// lookupName finds the character of a Unicode name.
func lookupName(name string) (rune, bool) {
	name = strings.ToUpper(name)
	if hex, ok := strings.CutPrefix(name, "CJK UNIFIED IDEOGRAPH-"); ok && (len(hex) == 4 || len(hex) == 5) {
		v, err := strconv.ParseUint(hex, 16, 32)
		if err == nil && strings.HasPrefix(runenames.Name(rune(v)), "<CJK Ideograph") {
			return rune(v), true
		}
		return 0, false
	}
	namesOnce.Do(func() {
		names = map[string]rune{}
		for r := rune(0); r <= 0x10ffff; r++ {
			if n := runenames.Name(r); n != "" && n[0] != '<' {
				names[n] = r
			}
		}
	})
	r, ok := names[name]
	return r, ok
}
