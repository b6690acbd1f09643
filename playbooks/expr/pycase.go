package expr

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// pyUpper is Python's str.upper(): Unicode's full case mapping, so a
// letter may become several ('ß' is 'SS').
func pyUpper(s string) string { return cases.Upper(language.Und).String(s) }

// pyLower is Python's str.lower(), with Unicode's full case mapping.
func pyLower(s string) string { return cases.Lower(language.Und).String(s) }

// capitalize is Python's str.capitalize(): the first character in
// title case (Unicode's full mapping: 'ǆ' is 'ǅ', 'ß' is 'Ss'), the
// rest lowercased.
func capitalize(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return cases.Title(language.Und, cases.NoLower).String(s[:n]) + pyLower(s[n:])
}

// wordBeginning is what Jinja's title filter splits words at.
var wordBeginning = regexp.MustCompile(`[-\s({\[<]+`)

// jinjaTitle is Jinja's title filter: the text split at runs of
// blanks, hyphens and opening brackets, each piece's first character
// uppercased (str.upper) and the rest lowercased.
func jinjaTitle(s string) string {
	var b strings.Builder
	piece := func(p string) {
		if _, n := utf8.DecodeRuneInString(p); n > 0 {
			b.WriteString(pyUpper(p[:n]) + pyLower(p[n:]))
		}
	}
	last := 0
	for _, m := range wordBeginning.FindAllStringIndex(s, -1) {
		piece(s[last:m[0]])
		piece(s[m[0]:m[1]])
		last = m[1]
	}
	piece(s[last:])
	return b.String()
}
