// Package pyini reads INI text as Python's configparser.ConfigParser does,
// for the two places tender meets it: the ini lookup and ansible.cfg. It
// imports nothing of tender's but internal/pyfmt.
package pyini

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// Options are the ConfigParser settings that differ between its users.
type Options struct {
	// CaseSensitive keeps option names as written (optionxform = str);
	// by default they are lower-cased.
	CaseSensitive bool
	// AllowNoValue accepts a key alone on its line (allow_no_value).
	AllowNoValue bool
	// InlineComments makes ";" after whitespace start a comment
	// (inline_comment_prefixes=(';',), as Ansible reads ansible.cfg).
	InlineComments bool
	// Source is the name errors give the text: "<???>" for a file
	// object read with read_file, "<string>" for read_string.
	Source string
	// MaxSize bounds an interpolated value; 0 means no bound.
	MaxSize int
}

// Parser holds what one ConfigParser has read: [section] headers (DEFAULT
// holds values every section sees), "key = value" or "key: value"
// options, values continued on more-indented lines (blank lines inside a
// value kept), whole-line comments starting with # or ;, option names
// lower-cased unless CaseSensitive, a duplicate section or option within
// one text an error, and %(name)s / %% interpolation when a value is read
// with Get. Reading several texts merges them, as successive reads into
// one ConfigParser do.
type Parser struct {
	opts     Options
	defaults *section
	sections map[string]*section
	order    []string // section names, in the order first read
}

type section struct {
	keys []string // in the order first read
	vals map[string]*value
}

// value is an option's lines (joined when read), or none for an option
// without a value.
type value struct {
	lines []string
	none  bool
}

func (s *section) set(key string, v *value) {
	if _, ok := s.vals[key]; !ok {
		s.keys = append(s.keys, key)
	}
	s.vals[key] = v
}

// New returns an empty Parser.
func New(o Options) *Parser {
	if o.Source == "" {
		o.Source = "<???>"
	}
	return &Parser{opts: o, defaults: &section{vals: map[string]*value{}}, sections: map[string]*section{}}
}

// DefaultSection is the section whose options every other section sees.
const DefaultSection = "DEFAULT"

func (p *Parser) xform(key string) string {
	if p.opts.CaseSensitive {
		return key
	}
	return strings.ToLower(key)
}

// Error is a configparser error, with its message.
type Error struct{ Msg string }

// Error implements error.
func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// DuplicateError is configparser's DuplicateOptionError.
type DuplicateError struct{ Msg string }

// Error implements error.
func (e *DuplicateError) Error() string { return e.Msg }

// NoSectionError is configparser's NoSectionError.
type NoSectionError struct{ Section string }

// Error implements error.
func (e *NoSectionError) Error() string {
	return fmt.Sprintf("No section: %s", pyfmt.Quote(e.Section))
}

// strip returns line without its comment, stripped, and whether the line
// had a comment (whole-line, or inline when InlineComments).
func (p *Parser) strip(line string) (string, bool) {
	stripped := strings.TrimFunc(line, pyfmt.IsSpace)
	if strings.HasPrefix(stripped, "#") || strings.HasPrefix(stripped, ";") {
		return "", true
	}
	if p.opts.InlineComments {
		for i := 0; i < len(line); i++ {
			if line[i] != ';' {
				continue
			}
			if i == 0 {
				return "", true
			}
			if r, _ := utf8.DecodeLastRuneInString(line[:i]); pyfmt.IsSpace(r) {
				return strings.TrimFunc(line[:i], pyfmt.IsSpace), true
			}
		}
	}
	return stripped, false
}

// Read parses src into p.
func (p *Parser) Read(src string) error {
	added := map[string]bool{}
	var cur *section
	sectName, optName := "", ""
	indent := 0
	var bad []string
	lines := strings.SplitAfter(src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, line := range lines {
		lineno := i + 1
		val, comment := p.strip(line)
		if val == "" {
			if !comment && cur != nil && optName != "" && !cur.vals[optName].none {
				v := cur.vals[optName]
				v.lines = append(v.lines, "")
			}
			continue
		}
		curIndent := utf8.RuneCountInString(line[:strings.IndexFunc(line, func(r rune) bool { return !pyfmt.IsSpace(r) })])
		if cur != nil && optName != "" && curIndent > indent {
			v := cur.vals[optName]
			if v.none {
				return errorf("'NoneType' object has no attribute 'append'")
			}
			v.lines = append(v.lines, val)
			continue
		}
		indent = curIndent
		if name, ok := header(val); ok {
			switch s, exists := p.sections[name]; {
			case exists:
				if added[name] {
					return errorf("While reading from '%s' [line %2d]: section %s already exists", p.opts.Source, lineno, pyfmt.Quote(name))
				}
				cur = s
			case name == DefaultSection:
				cur = p.defaults
			default:
				cur = &section{vals: map[string]*value{}}
				p.sections[name] = cur
				p.order = append(p.order, name)
			}
			if name != DefaultSection {
				added[name] = true
			}
			sectName, optName = name, ""
			continue
		}
		if cur == nil {
			return errorf("File contains no section headers.\nfile: '%s', line: %d\n%s", p.opts.Source, lineno, pyfmt.Quote(line))
		}
		opt, v, hasVal, ok := p.option(val)
		if !ok || opt == "" {
			bad = append(bad, fmt.Sprintf("\n\t[line %2d]: %s", lineno, pyfmt.Quote(line)))
			if !ok {
				continue
			}
		}
		opt = p.xform(opt)
		if k := sectName + "\x00" + opt; added[k] {
			return &DuplicateError{fmt.Sprintf("While reading from '%s' [line %2d]: option %s in section %s already exists", p.opts.Source, lineno, pyfmt.Quote(opt), pyfmt.Quote(sectName))}
		} else {
			added[k] = true
		}
		if hasVal {
			cur.set(opt, &value{lines: []string{strings.TrimFunc(v, pyfmt.IsSpace)}})
		} else {
			cur.set(opt, &value{none: true})
		}
		optName = opt
	}
	if len(bad) > 0 {
		return errorf("Source contains parsing errors: '%s'%s", p.opts.Source, strings.Join(bad, ""))
	}
	return nil
}

// header matches "[name]" (up to the last "]" of the line).
func header(val string) (string, bool) {
	if !strings.HasPrefix(val, "[") {
		return "", false
	}
	end := strings.LastIndexByte(val, ']')
	if end < 2 {
		return "", false
	}
	return val[1:end], true
}

// option splits "key = value" (or "key: value") at the first delimiter;
// without one the line is a valueless key when allowed, else invalid.
func (p *Parser) option(val string) (key, v string, hasVal, ok bool) {
	d := strings.IndexAny(val, "=:")
	if d < 0 {
		return val, "", false, p.opts.AllowNoValue
	}
	return strings.TrimRightFunc(val[:d], pyfmt.IsSpace), val[d+1:], true, true
}

// lookup finds option (already transformed) in sect, then DEFAULT.
func (p *Parser) lookup(sect, option string) (*value, error) {
	if s, ok := p.sections[sect]; ok {
		if v, ok := s.vals[option]; ok {
			return v, nil
		}
	} else if sect != DefaultSection {
		return nil, &NoSectionError{sect}
	}
	return p.defaults.vals[option], nil
}

func (v *value) text() string {
	return strings.TrimRightFunc(strings.Join(v.lines, "\n"), pyfmt.IsSpace)
}

// Get is ConfigParser.get: the interpolated value of key in sect, nil for
// a valueless key; found is false when neither sect nor DEFAULT has it,
// and a missing section is a *NoSectionError.
func (p *Parser) Get(sect, key string) (v any, found bool, err error) {
	opt := p.xform(key)
	iv, err := p.lookup(sect, opt)
	if err != nil || iv == nil {
		return nil, false, err
	}
	if iv.none {
		return nil, true, nil
	}
	s, err := p.interpolate(sect, opt, iv.text())
	return s, true, err
}

// GetRaw is ConfigParser.get(raw=True): Get without interpolation.
func (p *Parser) GetRaw(sect, key string) (v any, found bool, err error) {
	iv, err := p.lookup(sect, p.xform(key))
	if err != nil || iv == nil {
		return nil, false, err
	}
	if iv.none {
		return nil, true, nil
	}
	return iv.text(), true, nil
}

// Sections is ConfigParser.sections(): the sections read, DEFAULT left
// out, in the order first read.
func (p *Parser) Sections() []string { return append([]string(nil), p.order...) }

// Items is ConfigParser.items(sect): DEFAULT's options, then the
// section's, interpolated (a valueless option reads as "").
func (p *Parser) Items(sect string) ([]string, []string, error) {
	if _, ok := p.sections[sect]; !ok && sect != DefaultSection {
		return nil, nil, &NoSectionError{sect}
	}
	keys := append([]string{}, p.defaults.keys...)
	if s, ok := p.sections[sect]; ok {
		for _, k := range s.keys {
			if _, dup := p.defaults.vals[k]; !dup {
				keys = append(keys, k)
			}
		}
	}
	vals := make([]string, len(keys))
	for i, k := range keys {
		iv, _ := p.lookup(sect, k)
		if iv.none {
			continue
		}
		s, err := p.interpolate(sect, k, iv.text())
		if err != nil {
			return nil, nil, err
		}
		vals[i] = s
	}
	return keys, vals, nil
}

var ref = regexp.MustCompile(`\A%\(([^)]+)\)s`)

// maxInterpolation is configparser's MAX_INTERPOLATION_DEPTH.
const maxInterpolation = 10

// interpolate expands %(name)s (another option of the section or DEFAULT)
// and %% in val, as configparser's BasicInterpolation does.
func (p *Parser) interpolate(sect, option, val string) (string, error) {
	var b strings.Builder
	var expand func(rest string, depth int) error
	expand = func(rest string, depth int) error {
		if depth > maxInterpolation {
			raw, _ := p.lookup(sect, option)
			return errorf("Recursion limit exceeded in value substitution: option %s in section %s contains an interpolation key which cannot be substituted in %d steps. Raw value: %s",
				pyfmt.Quote(option), pyfmt.Quote(sect), maxInterpolation, pyfmt.Quote(raw.text()))
		}
		for rest != "" {
			if p.opts.MaxSize > 0 && b.Len() > p.opts.MaxSize {
				return errorf("interpolated value of %s is too large", pyfmt.Quote(option))
			}
			i := strings.IndexByte(rest, '%')
			if i < 0 {
				b.WriteString(rest)
				return nil
			}
			b.WriteString(rest[:i])
			rest = rest[i:]
			switch {
			case strings.HasPrefix(rest, "%%"):
				b.WriteByte('%')
				rest = rest[2:]
			case strings.HasPrefix(rest, "%("):
				m := ref.FindStringSubmatch(rest)
				if m == nil {
					return errorf("bad interpolation variable reference %s", pyfmt.Quote(rest))
				}
				rest = rest[len(m[0]):]
				name := p.xform(m[1])
				iv, err := p.lookup(sect, name)
				if err != nil {
					return err
				}
				if iv == nil {
					raw, _ := p.lookup(sect, option)
					return errorf("Bad value substitution: option %s in section %s contains an interpolation key %s which is not a valid option name. Raw value: %s",
						pyfmt.Quote(option), pyfmt.Quote(sect), pyfmt.Quote(name), pyfmt.Quote(raw.text()))
				}
				if iv.none {
					return errorf("argument of type 'NoneType' is not iterable")
				}
				if t := iv.text(); !strings.Contains(t, "%") {
					b.WriteString(t)
				} else if err := expand(t, depth+1); err != nil {
					return err
				}
			default:
				return errorf("'%%' must be followed by '%%' or '(', found: %s", pyfmt.Quote(rest))
			}
		}
		return nil
	}
	if err := expand(val, 1); err != nil {
		return "", err
	}
	return b.String(), nil
}
