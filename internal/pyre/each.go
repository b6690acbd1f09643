package pyre

import (
	"bytes"
	"regexp"
)

// EachMatch calls f with each match of re in src, in order: the same
// matches as re.FindAllSubmatchIndex(src, -1), found one at a time, so
// that neither their list is held (millions of matches of a short pattern
// in a long text would take hundreds of megabytes) nor the search goes on
// once f returns an error: the search stops at once and EachMatch
// returns that error. m holds the indices of the whole match, and of each
// group when groups is set (finding the groups costs a second, anchored
// match); f must not keep m.
func EachMatch(re *regexp.Regexp, src []byte, groups bool, f func(m []int) error) (err error) {
	if lit, complete := re.LiteralPrefix(); complete && lit != "" && (!groups || re.NumSubexp() == 0) {
		return eachLiteral([]byte(lit), src, f)
	}
	var at *anchored
	if groups && re.NumSubexp() > 0 {
		at = newAnchored(re)
	}
	// Go's ReplaceAllFunc finds the matches one at a time and hands each
	// to its function as src[start:end], whose capacity tells start. It
	// has no way to stop, so an error unwinds it as a panic that only
	// this function raises and recovers.
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(stopSearch)
			if !ok {
				panic(r)
			}
			err = s.err
		}
	}()
	var m [2]int
	re.ReplaceAllFunc(src, func(match []byte) []byte {
		m[0] = cap(src) - cap(match)
		m[1] = m[0] + len(match)
		var e error
		if at != nil {
			// the leftmost-first match starting at m[0], found again
			e = f(at.at(src, m[0]))
		} else {
			e = f(m[:])
		}
		if e != nil {
			panic(stopSearch{e})
		}
		return nil
	})
	return nil
}

// stopSearch carries f's error out of ReplaceAllFunc.
type stopSearch struct{ err error }

// anchored matches a regular expression at one position of a text only,
// seeing the byte before it as context (for ^ in multiline mode, \b, \B).
type anchored struct {
	start *regexp.Regexp // at the start of the text: \A(?:re)
	after *regexp.Regexp // after one byte of context: \A(?s:.)(?:re)
}

func newAnchored(re *regexp.Regexp) *anchored {
	return &anchored{
		start: regexp.MustCompile(`\A(?:` + re.String() + `)`),
		after: regexp.MustCompile(`\A(?s:.)(?:` + re.String() + `)`),
	}
}

// at returns the submatch indices of the match of the regular expression
// at pos in src (nil when there is none), in src's coordinates. A match
// starts on a character's boundary, so the byte before pos is a whole
// character to the context's (?s:.), or an invalid byte it takes alone.
func (a *anchored) at(src []byte, pos int) []int {
	if pos == 0 {
		return a.start.FindSubmatchIndex(src)
	}
	m := a.after.FindSubmatchIndex(src[pos-1:])
	if m == nil {
		return nil
	}
	for k := range m {
		if m[k] >= 0 {
			m[k] += pos - 1
		}
	}
	m[0] = pos
	return m
}

// eachLiteral is EachMatch for a pattern that is a literal text (not
// empty): its matches are the text's occurrences, one after the other,
// which bytes.Index finds far faster than the regular expression machine.
func eachLiteral(lit, src []byte, f func(m []int) error) error {
	var m [2]int
	for pos := 0; ; {
		i := bytes.Index(src[pos:], lit)
		if i < 0 {
			return nil
		}
		m[0] = pos + i
		m[1] = m[0] + len(lit)
		if err := f(m[:]); err != nil {
			return err
		}
		pos = m[1]
	}
}
