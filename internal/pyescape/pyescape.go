// Package pyescape decodes one escape sequence of a Python string literal
// (what follows a backslash), which Python literals in inventories, Jinja
// string literals and Ansible's k=v words all decode, each keeping its own
// rule for the sequences it does not take.
package pyescape

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the family of an escape sequence.
type Kind uint8

// The families of escape sequences.
const (
	// Unknown: the letter starts no escape Python knows; the backslash
	// stays as written.
	Unknown Kind = iota
	// Simple: \\ \' \" \a \b \f \n \r \t \v.
	Simple
	// Octal: one to three octal digits.
	Octal
	// Hex: \xNN, \uNNNN or \UNNNNNNNN.
	Hex
)

// simpleLetters are the letters of the one-character escapes, and
// simpleValues what each stands for, in the same order.
const (
	simpleLetters = "\\'\"abfnrtv"
	simpleValues  = "\\'\"\a\b\f\n\r\t\v"
)

// Decode decodes the escape sequence s starts with (s begins with the
// letter after the backslash): the code point, the sequence's length
// (letter included) and its kind. A hex escape without enough hex digits,
// or beyond Unicode, is problem "truncated" or "invalid" (n is 0). An
// unknown letter is Unknown with n 0.
func Decode(s string) (r rune, n int, kind Kind, problem string) {
	if s == "" {
		return 0, 0, Unknown, ""
	}
	e := s[0]
	if i := strings.IndexByte(simpleLetters, e); i >= 0 {
		return rune(simpleValues[i]), 1, Simple, ""
	}
	switch e {
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n = 1
		for n < len(s) && n < 3 && s[n] >= '0' && s[n] <= '7' {
			n++
		}
		v, _ := strconv.ParseUint(s[:n], 8, 32)
		return rune(v), n, Octal, ""
	case 'x', 'u', 'U':
		w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
		if 1+w > len(s) {
			return 0, 0, Hex, "truncated"
		}
		v, err := strconv.ParseUint(s[1:1+w], 16, 32)
		if err != nil || v > utf8.MaxRune || strings.ContainsAny(s[1:1+w], "+-_") {
			return 0, 0, Hex, "invalid"
		}
		return rune(v), 1 + w, Hex, ""
	}
	return 0, 0, Unknown, ""
}
