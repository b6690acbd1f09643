package facts

import (
	"errors"
	"regexp"
	"strings"
)

// The INI dialect of Python's configparser.ConfigParser with its defaults,
// which Ansible reads local facts with: [sections], "key = value" or
// "key: value" (keys lower-cased), # and ; comment lines, indented
// continuation lines, a DEFAULT section every section inherits, and
// %(key)s interpolation with %% for a percent sign.
var (
	reIniSection = regexp.MustCompile(`^\[(.+)\]`)
	reIniOption  = regexp.MustCompile(`^(.*?)\s*([=:])\s*(.*)$`)
	reIniKey     = regexp.MustCompile(`^%\(([^)]+)\)s`)
)

var (
	errIniParse       = errors.New("configparser.Error")
	errIniInterpolate = errors.New("configparser.InterpolationError")
)

type iniSection struct {
	keys []string
	vals map[string][]string
}

func (s *iniSection) set(k, v string) {
	if _, ok := s.vals[k]; !ok {
		s.keys = append(s.keys, k)
	}
	s.vals[k] = []string{v}
}

// parseINI reads text as ConfigParser does and returns section → option
// → value, interpolated. errIniParse is a file ConfigParser would not
// read; errIniInterpolate one it reads but cannot interpolate.
func parseINI(text string) (map[string]any, error) {
	defaults := &iniSection{vals: map[string][]string{}}
	sections := map[string]*iniSection{}
	var order []string
	var cur *iniSection
	curName, opt := "", ""
	added := map[string]bool{}
	indent := 0
	failed := false
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		comment := strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";")
		if comment || trimmed == "" {
			if !comment && cur != nil && opt != "" {
				cur.vals[opt] = append(cur.vals[opt], "")
			}
			continue
		}
		level := len(line) - len(strings.TrimLeft(line, " \t\f\v\r"))
		if cur != nil && opt != "" && level > indent {
			cur.vals[opt] = append(cur.vals[opt], trimmed)
			continue
		}
		indent = level
		if m := reIniSection.FindStringSubmatch(trimmed); m != nil {
			curName, opt = m[1], ""
			switch s, ok := sections[curName]; {
			case ok:
				if added[curName] {
					return nil, errIniParse // duplicate section
				}
				cur = s
			case curName == "DEFAULT":
				cur = defaults
			default:
				cur = &iniSection{vals: map[string][]string{}}
				sections[curName] = cur
				order = append(order, curName)
			}
			added[curName] = true
			continue
		}
		if cur == nil {
			return nil, errIniParse // no section header
		}
		m := reIniOption.FindStringSubmatch(trimmed)
		if m == nil {
			failed = true // reported once the whole file is read
			continue
		}
		if m[1] == "" {
			failed = true
		}
		opt = strings.ToLower(strings.TrimRight(m[1], " \t"))
		if added[curName+"\x00"+opt] {
			return nil, errIniParse // duplicate option
		}
		added[curName+"\x00"+opt] = true
		cur.set(opt, strings.TrimSpace(m[3]))
	}
	if failed {
		return nil, errIniParse
	}
	join := func(s *iniSection) map[string]string {
		out := map[string]string{}
		for k, v := range s.vals {
			out[k] = strings.TrimRight(strings.Join(v, "\n"), " \t\n\r\f\v")
		}
		return out
	}
	defs := join(defaults)
	out := map[string]any{}
	for _, name := range order {
		own := join(sections[name])
		vars := map[string]string{}
		for k, v := range defs {
			vars[k] = v
		}
		for k, v := range own {
			vars[k] = v
		}
		sect := map[string]any{}
		for k := range vars {
			v, err := interpolate(vars[k], vars, 1)
			if err != nil {
				return nil, err
			}
			sect[k] = v
		}
		out[name] = sect
	}
	return out, nil
}

// interpolate expands %(key)s and %% as configparser's BasicInterpolation.
func interpolate(s string, vars map[string]string, depth int) (string, error) {
	if depth > 10 {
		return "", errIniInterpolate
	}
	var b strings.Builder
	for s != "" {
		p := strings.IndexByte(s, '%')
		if p < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:p])
		s = s[p:]
		switch {
		case strings.HasPrefix(s, "%%"):
			b.WriteByte('%')
			s = s[2:]
		case strings.HasPrefix(s, "%("):
			m := reIniKey.FindStringSubmatch(s)
			if m == nil {
				return "", errIniInterpolate
			}
			s = s[len(m[0]):]
			v, ok := vars[strings.ToLower(m[1])]
			if !ok {
				return "", errIniInterpolate
			}
			if strings.Contains(v, "%") {
				var err error
				if v, err = interpolate(v, vars, depth+1); err != nil {
					return "", err
				}
			}
			b.WriteString(v)
		default:
			return "", errIniInterpolate
		}
	}
	return b.String(), nil
}
