// Package pykv splits Ansible's "k=v" argument strings exactly as
// ansible-core's parse_kv and split_args do: the module arguments of a
// task line, and the terms of lookups that take k=v options (sequence,
// csvfile, password, ...). It is a leaf: it imports only the standard
// library.
package pykv

import (
	"errors"
	"strings"

	"github.com/tender-sh/tender/internal/pyescape"
)

// ErrUnbalanced is returned (wrapped) by SplitArgs when a quote or a Jinja2
// block ({{ }}, {% %}, {# #}) is left open.
var ErrUnbalanced = errors.New("failed at splitting arguments, either an unbalanced jinja2 block or quotes")

// freeFormOptions are the k=v options that Ansible splits out of a
// free-form command line (shell, command, raw, script); every other word
// stays part of the command.
var freeFormOptions = map[string]bool{
	"creates": true, "removes": true, "chdir": true, "executable": true, "warn": true,
	"stdin": true, "stdin_add_newline": true, "strip_empty_ends": true,
}

// SplitArgs splits a module argument string on whitespace the way Ansible's
// split_args does: words inside quotes or inside a Jinja2 block ({{ }},
// {% %}, {# #}) stay together with their spaces, a newline between words
// is kept at the end of the word before it, and a lone backslash at the end
// of a line continues it. The quotes themselves are kept.
func SplitArgs(s string) ([]string, error) {
	var params []string
	var quote byte
	inQuotes := false
	printDepth, blockDepth, commentDepth := 0, 0, 0
	lines := strings.Split(s, "\n")
	for li, line := range lines {
		tokens := strings.Split(line, " ")
		continuation := false
		for ti, tok := range tokens {
			if tok == "" && ti != 0 {
				// Consecutive spaces: keep them on the previous word.
				// (Ansible fails with an IndexError on leading spaces; we skip them.)
				if len(params) > 0 {
					params[len(params)-1] += " "
				}
				continue
			}
			if tok == `\` && !inQuotes {
				continuation = true
				continue
			}
			wasInQuotes := inQuotes
			quote = quoteState(tok, quote)
			inQuotes = quote != 0
			inJinja := printDepth > 0 || blockDepth > 0 || commentDepth > 0
			appended := false
			switch {
			case inQuotes && !wasInQuotes && !inJinja:
				params = append(params, tok)
				appended = true
			case inJinja || inQuotes || wasInQuotes:
				if len(params) == 0 {
					params = append(params, "")
				}
				last := &params[len(params)-1]
				switch {
				case ti == 0 && wasInQuotes:
					*last += tok
				case len(tokens) > 1:
					if ti > 0 {
						*last += " "
					}
					*last += tok
				default:
					*last += "\n" + tok
				}
				appended = true
			}
			for _, d := range []struct {
				depth       *int
				open, close string
			}{{&printDepth, "{{", "}}"}, {&blockDepth, "{%", "%}"}, {&commentDepth, "{#", "#}"}} {
				prev := *d.depth
				*d.depth = jinjaDepth(tok, prev, d.open, d.close)
				if *d.depth != prev && !appended {
					params = append(params, tok)
					appended = true
				}
			}
			if printDepth == 0 && blockDepth == 0 && commentDepth == 0 && !inQuotes && !appended && tok != "" {
				params = append(params, tok)
			}
		}
		if len(lines) > 1 && li != len(lines)-1 && !continuation && len(params) > 0 {
			params[len(params)-1] += "\n"
		}
	}
	if printDepth > 0 || blockDepth > 0 || commentDepth > 0 || inQuotes {
		return nil, ErrUnbalanced
	}
	return params, nil
}

// quoteState returns the quote character still open after tok, given the
// one open before it (0 for none). A quote preceded by a backslash does not
// count.
func quoteState(tok string, quote byte) byte {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if (c == '"' || c == '\'') && (i == 0 || tok[i-1] != '\\') {
			if quote != 0 {
				if c == quote {
					quote = 0
				}
			} else {
				quote = c
			}
		}
	}
	return quote
}

func jinjaDepth(tok string, depth int, open, close string) int {
	o, c := strings.Count(tok, open), strings.Count(tok, close)
	if o != c {
		depth += o - c
		if depth < 0 {
			depth = 0
		}
	}
	return depth
}

// joinArgs puts split words back together, a space between words unless
// the previous one ended a line.
func joinArgs(words []string) string {
	var b strings.Builder
	for _, w := range words {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// KV is one key=value pair of a module argument string, in written order.
type KV struct {
	Key   string
	Value string
}

// ParseKV parses a module argument string into key=value pairs in written
// order, as Ansible's parse_kv does: escapes (\n, \t, \", \\, \xNN, \uNNNN)
// are decoded, a value's surrounding quotes are removed, and words that are
// not k=v are joined (as written, quotes and escapes kept) into the
// returned raw string. When freeForm is set (shell, command, raw, script),
// only Ansible's command options (chdir, creates, removes, executable,
// stdin, …) are taken out as pairs; every other word, with or without "=",
// belongs to the raw command.
func ParseKV(s string, freeForm bool) (pairs []KV, raw string, err error) {
	words, err := SplitArgs(s)
	if err != nil {
		return nil, "", err
	}
	var rawWords []string
	for _, orig := range words {
		x := decodeEscapes(orig)
		eq := unescapedEquals(x)
		if !strings.Contains(x, "=") {
			rawWords = append(rawWords, orig)
			continue
		}
		if eq < 0 {
			rawWords = append(rawWords, strings.ReplaceAll(x, `\=`, "="))
			continue
		}
		k, v := x[:eq], x[eq+1:]
		if freeForm && !freeFormOptions[k] {
			rawWords = append(rawWords, orig)
			continue
		}
		pairs = append(pairs, KV{Key: strings.TrimSpace(k), Value: unquote(strings.TrimSpace(v))})
	}
	return pairs, joinArgs(rawWords), nil
}

// SplitKV parses "k=v k2='v 2'" into a map (a later duplicate key wins),
// with free words joined under "_raw_params", exactly as Ansible's
// parse_kv(s) without check_raw. Values are strings.
func SplitKV(s string) (map[string]any, error) {
	_, m, err := SplitKVKeys(s)
	return m, err
}

// SplitKVKeys is SplitKV that also gives the map's keys in the order of
// the Python dict Ansible builds: each key where it was first written (a
// later duplicate changes the value, not the place), "_raw_params" last.
// Plugins that list the options they do not know list them in this order.
func SplitKVKeys(s string) ([]string, map[string]any, error) {
	pairs, raw, err := ParseKV(s, false)
	if err != nil {
		return nil, nil, err
	}
	m := make(map[string]any, len(pairs)+1)
	var keys []string
	for _, p := range pairs {
		if _, seen := m[p.Key]; !seen {
			keys = append(keys, p.Key)
		}
		m[p.Key] = p.Value
	}
	if raw != "" {
		if _, seen := m["_raw_params"]; !seen {
			keys = append(keys, "_raw_params")
		}
		m["_raw_params"] = raw
	}
	return keys, m, nil
}

// unescapedEquals returns the index of the first "=" after position 0 that
// is not preceded by a backslash, or -1.
func unescapedEquals(x string) int {
	for i := 1; i < len(x); i++ {
		if x[i] == '=' && x[i-1] != '\\' {
			return i
		}
	}
	return -1
}

// unquote removes one pair of matching surrounding quotes, unless the
// closing one is escaped.
func unquote(s string) string {
	if len(s) > 1 && s[0] == s[len(s)-1] && (s[0] == '"' || s[0] == '\'') && s[len(s)-2] != '\\' {
		return s[1 : len(s)-1]
	}
	return s
}

// decodeEscapes decodes the Python escapes Ansible decodes in k=v words:
// \\ \' \" \a \b \f \n \r \t \v \xNN \uNNNN \UNNNNNNNN. Anything else
// (including \N{name}) is left as written.
func decodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		// Ansible decodes the simple and hex escapes only (Python decodes
		// \xNN as the code point U+00NN, like \u00NN).
		if r, n, kind, problem := pyescape.Decode(s[i+1:]); problem == "" && (kind == pyescape.Simple || kind == pyescape.Hex) {
			b.WriteRune(r)
			i += n
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
