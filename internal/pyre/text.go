package pyre

import (
	"errors"
	"unicode/utf8"
)

// text is a string as regexp2 reads it: its characters, and the byte
// offset where each begins (nil when each is one byte). A text pattern
// reads UTF-8 (an invalid byte is one U+FFFD, as Python's
// errors='replace' decodes it); a bytes pattern reads bytes (byteRune).
type text struct {
	runes []rune
	off   []int32 // len(runes)+1 offsets, the last the length
}

// errTextTooLong refuses a text whose offsets an int32 cannot hold.
var errTextTooLong = errors.New("text too long for a regular expression (2 GiB or more)")

func (re *Regexp) decode(s string) (text, error) {
	if len(s) >= 1<<31-1 {
		return text{}, errTextTooLong
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii || re.bytes {
		r := make([]rune, len(s))
		for i := 0; i < len(s); i++ {
			r[i] = byteRune(s[i])
		}
		return text{runes: r}, nil
	}
	n := utf8.RuneCountInString(s)
	t := text{runes: make([]rune, 0, n), off: make([]int32, 0, n+1)}
	for i, r := range s {
		t.runes = append(t.runes, r)
		t.off = append(t.off, int32(i))
	}
	t.off = append(t.off, int32(len(s)))
	return t, nil
}

// byteAt is the byte offset of the character at rune index i.
func (t text) byteAt(i int) int {
	if t.off == nil {
		return i
	}
	return int(t.off[i])
}

// runeAt is the rune index of the character that starts at byte offset
// b, or of the one b falls inside.
func (t text) runeAt(b int) int {
	if t.off == nil {
		return b
	}
	lo, hi := 0, len(t.off)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if int(t.off[mid]) <= b {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
