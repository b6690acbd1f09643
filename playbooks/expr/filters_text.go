package expr

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pytext"
)

// Jinja's text-layout filters: wordwrap (Python's textwrap), urlize and
// pprint (Python's pprint.pformat).

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// pySplitLines is Python's str.splitlines: every line break Python knows.
func pySplitLines(s string, keepEnds bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		br := n
		switch r {
		case '\r':
			if strings.HasPrefix(s[i+1:], "\n") {
				br = 2
			}
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		default:
			i += n
			continue
		}
		end := i
		if keepEnds {
			end = i + br
		}
		out = append(out, s[start:end])
		i += br
		start = i
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// fWordwrap is wordwrap(width=79, break_long_words=True, wrapstring=None,
// break_on_hyphens=True): each line of the text wrapped on its own.
func fWordwrap(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	width, ok := integer(argOr(args, kw, 0, "width", 79))
	if !ok || width <= 0 {
		return nil, errorf("invalid width %s (must be > 0)", Repr(argOr(args, kw, 0, "width", 79)))
	}
	breakLong := Truthy(argOr(args, kw, 1, "break_long_words", true))
	sep := strArg(args, kw, 2, "wrapstring", "\n")
	hyphens := Truthy(argOr(args, kw, 3, "break_on_hyphens", true))
	var paras []string
	for _, line := range pySplitLines(Str(x), false) {
		paras = append(paras, strings.Join(pytext.Wrap(line, width, pytext.Options{BreakLongWords: breakLong, BreakOnHyphens: hyphens}), sep))
	}
	out := strings.Join(paras, sep)
	if len(out) > maxSize {
		return nil, errorf("wrapped text too large")
	}
	return out, nil
}

// pyWS and pyW are Python's \s and \w for str patterns (Unicode), which
// Go's \s and \w (ASCII) are not: \w is what str.isalnum() accepts and
// "_", not the combining marks or the other connectors (internal/pyre's
// TestClassesLikePython checks the same classes against Python).
const (
	pyWS = `\t\n\v\f\r \x1c-\x1f\x85\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`
	pyW  = `\p{L}\p{N}_`
)

var (
	urlizeHead   = regexp.MustCompile(`^([(<]|&lt;)+`)
	urlizeTail   = regexp.MustCompile(`([)>.,\n]|&gt;)+$`)
	urlizeHTTP   = regexp.MustCompile(`(?i)^((https?://|www\.)(([` + pyW + `%-]+\.)+)?([a-z]{2,63}|xn--[` + pyW + `%]{2,59})|([` + pyW + `%-]{2,63}\.)+(com|net|int|edu|gov|org|info|mil)|(https?://)((([\p{Nd}]{1,3})(\.[\p{Nd}]{1,3}){3})|(\[([\p{Nd}a-f]{0,4}:){2}([\p{Nd}a-f]{0,4}:?){1,6}])))(?::[\p{Nd}]{1,5})?(?:[/?#][^` + pyWS + `]*)?$`)
	urlizeEmail  = regexp.MustCompile(`^[^` + pyWS + `]+@[` + pyW + `][` + pyW + `.-]*\.[` + pyW + `]+$`)
	urlizeSplit  = regexp.MustCompile(`[` + pyWS + `]+`)
	urlizeScheme = regexp.MustCompile(`^[` + pyW + `.+-]{2,}:(/){0,2}$`)
	ppParts      = regexp.MustCompile(`[^` + pyWS + `]*[` + pyWS + `]*`)
)

// fURLize is urlize(trim_url_limit=None, nofollow=False, target=None,
// rel=None, extra_schemes=None): the text HTML-escaped, with URLs and
// e-mail addresses made links (rel="noopener", Jinja's default policy).
func fURLize(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	limit := -1
	if v := argOr(args, kw, 0, "trim_url_limit", nil); v != nil {
		limit, _ = integer(v)
	}
	relParts := map[string]bool{"noopener": true}
	if Truthy(argOr(args, kw, 1, "nofollow", false)) {
		relParts["nofollow"] = true
	}
	for _, r := range strings.Fields(strArg(args, kw, 3, "rel", "")) {
		relParts[r] = true
	}
	var rels []string
	for r := range relParts {
		rels = append(rels, r)
	}
	rel := ` rel="` + string(escapeHTML(strings.Join(sortedStrings(rels), " "))) + `"`
	target := ""
	if t := argOr(args, kw, 2, "target", nil); t != nil && Truthy(t) {
		target = ` target="` + string(escapeHTML(t)) + `"`
	}
	var extra []string
	if es := argOr(args, kw, 4, "extra_schemes", nil); es != nil {
		items, err := iterate(es)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			s := Str(it)
			if !urlizeScheme.MatchString(s) {
				return nil, errorf("%s is not a valid URI scheme prefix.", Repr(s))
			}
			extra = append(extra, s)
		}
	}
	trim := func(s string) string {
		if limit >= 0 && runeLen(s) > limit {
			return string([]rune(s)[:limit]) + "..."
		}
		return s
	}
	text := string(escapeHTML(x))
	var b strings.Builder
	last := 0
	words := urlizeSplit.FindAllStringIndex(text, -1)
	words = append(words, []int{len(text), len(text)})
	for _, sp := range words {
		word := text[last:sp[0]]
		head, middle, tail := "", word, ""
		if m := urlizeHead.FindString(middle); m != "" {
			head, middle = m, middle[len(m):]
		}
		if m := urlizeTail.FindStringIndex(middle); m != nil {
			tail, middle = middle[m[0]:], middle[:m[0]]
		}
		for _, pair := range [][2]string{{"(", ")"}, {"<", ">"}, {"&lt;", "&gt;"}} {
			starts := strings.Count(middle, pair[0])
			if starts <= strings.Count(middle, pair[1]) {
				continue
			}
			for k := min(starts, strings.Count(tail, pair[1])); k > 0; k-- {
				end := strings.Index(tail, pair[1]) + len(pair[1])
				middle += tail[:end]
				tail = tail[end:]
			}
		}
		switch {
		case urlizeHTTP.MatchString(middle):
			href := middle
			if !strings.HasPrefix(middle, "https://") && !strings.HasPrefix(middle, "http://") {
				href = "https://" + middle
			}
			middle = `<a href="` + href + `"` + rel + target + `>` + trim(middle) + `</a>`
		case strings.HasPrefix(middle, "mailto:") && urlizeEmail.MatchString(middle[7:]):
			middle = `<a href="` + middle + `">` + middle[7:] + `</a>`
		case strings.Contains(middle, "@") && !strings.HasPrefix(middle, "www.") && !strings.Contains(middle, ":") && urlizeEmail.MatchString(middle):
			middle = `<a href="mailto:` + middle + `">` + middle + `</a>`
		default:
			for _, s := range extra {
				if middle != s && strings.HasPrefix(middle, s) {
					middle = `<a href="` + middle + `"` + rel + target + `>` + middle + `</a>`
				}
			}
		}
		b.WriteString(head + middle + tail)
		b.WriteString(text[sp[0]:sp[1]])
		last = sp[1]
	}
	return b.String(), nil
}

func sortedStrings(s []string) []string {
	m := map[string]any{}
	for _, x := range s {
		m[x] = nil
	}
	return sortedKeys(m)
}

// pformat is Python's pprint.pformat(v) (width 80, indent 1, sorted dict
// keys): the repr when it fits, else lists, tuples, dicts and strings
// spread over lines.
func pformat(v any) string {
	var b strings.Builder
	pp(&b, v, 0, 0, 0, 80)
	return b.String()
}

// sortedRepr is Repr with every dict's keys sorted, as pprint writes a
// value that fits on one line.
func sortedRepr(v any) string {
	switch t := v.(type) {
	case map[string]any:
		parts := make([]string, 0, len(t))
		for _, k := range sortedKeys(t) {
			parts = append(parts, Repr(k)+": "+sortedRepr(t[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = sortedRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return Repr(v)
}

func pp(b *strings.Builder, v any, indent, allowance, level, width int) {
	rep := sortedRepr(v)
	if runeLen(rep) <= width-indent-allowance || b.Len() > maxSize {
		b.WriteString(rep)
		return
	}
	level++
	switch t := v.(type) {
	case map[string]any:
		b.WriteString("{")
		keys := sortedKeys(t)
		for i, k := range keys {
			last := i == len(keys)-1
			kr := Repr(k)
			b.WriteString(kr + ": ")
			a := 1
			if last {
				a = allowance + 1
			}
			pp(b, t[k], indent+1+runeLen(kr)+2, a, level, width)
			if !last {
				b.WriteString(",\n" + strings.Repeat(" ", indent+1))
			}
		}
		b.WriteString("}")
	case []any:
		b.WriteString("[")
		for i, e := range t {
			last := i == len(t)-1
			a := 1
			if last {
				a = allowance + 1
			}
			if i > 0 {
				b.WriteString(",\n" + strings.Repeat(" ", indent+1))
			}
			pp(b, e, indent+1, a, level, width)
		}
		b.WriteString("]")
	case string:
		ppString(b, t, indent, allowance, level, width)
	default:
		b.WriteString(rep)
	}
}

func ppString(b *strings.Builder, s string, indent, allowance, level, width int) {
	if s == "" {
		b.WriteString(Repr(s))
		return
	}
	lines := pySplitLines(s, true)
	if level == 1 {
		indent++
		allowance++
	}
	maxWidth := width - indent
	maxWidth1 := maxWidth
	var chunks []string
	rep := ""
	for i, line := range lines {
		rep = Repr(line)
		if i == len(lines)-1 {
			maxWidth1 -= allowance
		}
		if runeLen(rep) <= maxWidth1 {
			chunks = append(chunks, rep)
			continue
		}
		parts := ppParts.FindAllString(line, -1)
		if len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		maxWidth2 := maxWidth
		current := ""
		for j, part := range parts {
			candidate := current + part
			if j == len(parts)-1 && i == len(lines)-1 {
				maxWidth2 -= allowance
			}
			if runeLen(Repr(candidate)) > maxWidth2 {
				if current != "" {
					chunks = append(chunks, Repr(current))
				}
				current = part
			} else {
				current = candidate
			}
		}
		if current != "" {
			chunks = append(chunks, Repr(current))
		}
	}
	if len(chunks) == 1 {
		b.WriteString(rep)
		return
	}
	if level == 1 {
		b.WriteString("(")
	}
	for i, c := range chunks {
		if i > 0 {
			b.WriteString("\n" + strings.Repeat(" ", indent))
		}
		b.WriteString(c)
	}
	if level == 1 {
		b.WriteString(")")
	}
}
