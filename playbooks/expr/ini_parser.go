package expr

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// iniParser reads INI text as Python's configparser.ConfigParser does with
// the settings of Ansible's ini lookup: [section] headers (DEFAULT holds
// values every section sees), "key = value" or "key: value" options,
// values continued on more-indented lines (blank lines inside a value
// kept), whole-line comments starting with # or ;, option names
// lower-cased unless caseSensitive, "key" alone allowed only with
// allowNoValue, a duplicate section or option within one text an error,
// and %(name)s / %% interpolation when a value is read. Reading several
// texts merges them, as successive reads into one ConfigParser do.
type iniParser struct {
	caseSensitive bool
	allowNoValue  bool
	defaults      *iniSection
	sections      map[string]*iniSection
}

type iniSection struct {
	keys []string // in the order first read
	vals map[string]*iniValue
}

// iniValue is an option's lines (joined when read), or none for an
// option without a value.
type iniValue struct {
	lines []string
	none  bool
}

func (s *iniSection) set(key string, v *iniValue) {
	if _, ok := s.vals[key]; !ok {
		s.keys = append(s.keys, key)
	}
	s.vals[key] = v
}

func newIniParser(caseSensitive, allowNoValue bool) *iniParser {
	return &iniParser{caseSensitive: caseSensitive, allowNoValue: allowNoValue,
		defaults: &iniSection{vals: map[string]*iniValue{}}, sections: map[string]*iniSection{}}
}

const iniDefaultSection = "DEFAULT"

func (p *iniParser) xform(key string) string {
	if p.caseSensitive {
		return key
	}
	return strings.ToLower(key)
}

// iniDuplicateError is configparser's DuplicateOptionError.
type iniDuplicateError struct{ msg string }

func (e *iniDuplicateError) Error() string { return e.msg }

// iniNoSection is configparser's NoSectionError.
type iniNoSection struct{ section string }

func (e *iniNoSection) Error() string { return fmt.Sprintf("No section: %s", Repr(e.section)) }

// read parses src into p.
func (p *iniParser) read(src string) error {
	added := map[string]bool{}
	var cur *iniSection
	sectName, optName := "", ""
	indent := 0
	var bad []string
	lines := strings.SplitAfter(src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, line := range lines {
		lineno := i + 1
		stripped := strings.TrimFunc(line, pySpace)
		comment := strings.HasPrefix(stripped, "#") || strings.HasPrefix(stripped, ";")
		value := stripped
		if comment {
			value = ""
		}
		if value == "" {
			if !comment && cur != nil && optName != "" && !cur.vals[optName].none {
				v := cur.vals[optName]
				v.lines = append(v.lines, "")
			}
			continue
		}
		curIndent := utf8.RuneCountInString(line[:strings.IndexFunc(line, func(r rune) bool { return !pySpace(r) })])
		if cur != nil && optName != "" && curIndent > indent {
			v := cur.vals[optName]
			if v.none {
				return errorf("'NoneType' object has no attribute 'append'")
			}
			v.lines = append(v.lines, value)
			continue
		}
		indent = curIndent
		if header, ok := iniHeader(value); ok {
			switch s, exists := p.sections[header]; {
			case exists:
				if added[header] {
					return errorf("While reading from '<???>' [line %2d]: section %s already exists", lineno, Repr(header))
				}
				cur = s
			case header == iniDefaultSection:
				cur = p.defaults
			default:
				cur = &iniSection{vals: map[string]*iniValue{}}
				p.sections[header] = cur
			}
			if header != iniDefaultSection {
				added[header] = true
			}
			sectName, optName = header, ""
			continue
		}
		if cur == nil {
			return errorf("File contains no section headers.\nfile: '<???>', line: %d\n%s", lineno, Repr(line))
		}
		opt, val, hasVal, ok := p.option(value)
		if !ok {
			bad = append(bad, fmt.Sprintf("\n\t[line %2d]: %s", lineno, Repr(line)))
			continue
		}
		if opt == "" {
			bad = append(bad, fmt.Sprintf("\n\t[line %2d]: %s", lineno, Repr(line)))
		}
		opt = p.xform(opt)
		if k := sectName + "\x00" + opt; added[k] {
			return &iniDuplicateError{fmt.Sprintf("While reading from '<???>' [line %2d]: option %s in section %s already exists", lineno, Repr(opt), Repr(sectName))}
		} else {
			added[k] = true
		}
		if hasVal {
			cur.set(opt, &iniValue{lines: []string{strings.TrimFunc(val, pySpace)}})
		} else {
			cur.set(opt, &iniValue{none: true})
		}
		optName = opt
	}
	if len(bad) > 0 {
		return errorf("Source contains parsing errors: '<???>'%s", strings.Join(bad, ""))
	}
	return nil
}

// iniHeader matches "[name]" (up to the last "]" of the line).
func iniHeader(value string) (string, bool) {
	if !strings.HasPrefix(value, "[") {
		return "", false
	}
	end := strings.LastIndexByte(value, ']')
	if end < 2 {
		return "", false
	}
	return value[1:end], true
}

// option splits "key = value" (or "key: value") at the first delimiter;
// without one the line is a valueless key when allowed, else invalid.
func (p *iniParser) option(value string) (key, val string, hasVal, ok bool) {
	d := strings.IndexAny(value, "=:")
	if d < 0 {
		return value, "", false, p.allowNoValue
	}
	return strings.TrimRightFunc(value[:d], pySpace), value[d+1:], true, true
}

// lookup finds option (already transformed) in section, then DEFAULT.
func (p *iniParser) lookup(section, option string) (*iniValue, error) {
	if s, ok := p.sections[section]; ok {
		if v, ok := s.vals[option]; ok {
			return v, nil
		}
	} else if section != iniDefaultSection {
		return nil, &iniNoSection{section}
	}
	return p.defaults.vals[option], nil
}

func (v *iniValue) text() string {
	return strings.TrimRightFunc(strings.Join(v.lines, "\n"), pySpace)
}

// get is ConfigParser.get: the interpolated value of key in section, nil
// for a valueless key; found is false when neither section nor DEFAULT
// has it.
func (p *iniParser) get(section, key string) (v any, found bool, err error) {
	opt := p.xform(key)
	iv, err := p.lookup(section, opt)
	if err != nil || iv == nil {
		return nil, false, err
	}
	if iv.none {
		return nil, true, nil
	}
	s, err := p.interpolate(section, opt, iv.text())
	return s, true, err
}

// items is ConfigParser.items(section): DEFAULT's options, then the
// section's, interpolated (a valueless option reads as "").
func (p *iniParser) items(section string) ([]string, []string, error) {
	if _, ok := p.sections[section]; !ok && section != iniDefaultSection {
		return nil, nil, &iniNoSection{section}
	}
	keys := append([]string{}, p.defaults.keys...)
	if s, ok := p.sections[section]; ok {
		for _, k := range s.keys {
			if _, dup := p.defaults.vals[k]; !dup {
				keys = append(keys, k)
			}
		}
	}
	vals := make([]string, len(keys))
	for i, k := range keys {
		iv, _ := p.lookup(section, k)
		if iv.none {
			continue
		}
		s, err := p.interpolate(section, k, iv.text())
		if err != nil {
			return nil, nil, err
		}
		vals[i] = s
	}
	return keys, vals, nil
}

var iniRef = regexp.MustCompile(`\A%\(([^)]+)\)s`)

// maxIniInterpolation is configparser's MAX_INTERPOLATION_DEPTH.
const maxIniInterpolation = 10

// interpolate expands %(name)s (another option of the section or DEFAULT)
// and %% in value, as configparser's BasicInterpolation does.
func (p *iniParser) interpolate(section, option, value string) (string, error) {
	var b strings.Builder
	var expand func(rest string, depth int) error
	expand = func(rest string, depth int) error {
		if depth > maxIniInterpolation {
			raw, _ := p.lookup(section, option)
			return errorf("Recursion limit exceeded in value substitution: option %s in section %s contains an interpolation key which cannot be substituted in %d steps. Raw value: %s",
				Repr(option), Repr(section), maxIniInterpolation, Repr(raw.text()))
		}
		for rest != "" {
			if b.Len() > maxSize {
				return errorf("interpolated value of %s is too large", Repr(option))
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
				m := iniRef.FindStringSubmatch(rest)
				if m == nil {
					return errorf("bad interpolation variable reference %s", Repr(rest))
				}
				rest = rest[len(m[0]):]
				name := p.xform(m[1])
				iv, err := p.lookup(section, name)
				if err != nil {
					return err
				}
				if iv == nil {
					raw, _ := p.lookup(section, option)
					return errorf("Bad value substitution: option %s in section %s contains an interpolation key %s which is not a valid option name. Raw value: %s",
						Repr(option), Repr(section), Repr(name), Repr(raw.text()))
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
				return errorf("'%%' must be followed by '%%' or '(', found: %s", Repr(rest))
			}
		}
		return nil
	}
	if err := expand(value, 1); err != nil {
		return "", err
	}
	return b.String(), nil
}
