package packages

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// A repo file as Python's configparser.RawConfigParser (strict, '=' and
// ':' delimiters, '#' and ';' full-line comments, multi-line values)
// reads and writes it, which is how Ansible's yum_repository edits
// /etc/yum.repos.d: comments are dropped, option names lower-cased,
// values of several lines joined by newlines.

// repoSection is one [section]: its options in order.
type repoSection struct {
	name string
	keys []string
	vals map[string]string
}

func (s *repoSection) set(k, v string) {
	if _, ok := s.vals[k]; !ok {
		s.keys = append(s.keys, k)
	}
	s.vals[k] = v
}

// repoINI is a parsed repo file: the DEFAULT section and the others in
// the order they came.
type repoINI struct {
	defaults *repoSection
	sections []*repoSection
}

var (
	repoSectRE = regexp.MustCompile(`^\[(.+)\]`)
	repoOptRE  = regexp.MustCompile(`^(.*?)\s*(=|:)\s*(.*)$`)
)

// parseRepoINI reads text as RawConfigParser.read does, with its errors.
func parseRepoINI(text, file string) (*repoINI, error) {
	ini := &repoINI{defaults: &repoSection{name: "DEFAULT", vals: map[string]string{}}}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var cur *repoSection
	var opt string
	parts := map[string][]string{} // section\x00option: the value's lines
	indent := 0
	var perr []string
	seen := map[string]bool{}
	for n, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		value := strings.TrimSpace(line)
		comment := strings.HasPrefix(value, "#") || strings.HasPrefix(value, ";")
		if value == "" || comment {
			if !comment && cur != nil && opt != "" {
				k := cur.name + "\x00" + opt
				parts[k] = append(parts[k], "")
			}
			continue
		}
		lvl := strings.IndexFunc(line, func(r rune) bool { return !unicode.IsSpace(r) })
		if cur != nil && opt != "" && lvl > indent {
			k := cur.name + "\x00" + opt
			parts[k] = append(parts[k], value)
			continue
		}
		indent = lvl
		if m := repoSectRE.FindStringSubmatch(value); m != nil {
			name := m[1]
			switch {
			case seen["s\x00"+name]:
				return nil, fmt.Errorf("While reading from %q [line %2d]: section %q already exists", file, n+1, name)
			case name == "DEFAULT":
				cur = ini.defaults
			default:
				cur = &repoSection{name: name, vals: map[string]string{}}
				ini.sections = append(ini.sections, cur)
				seen["s\x00"+name] = true
			}
			opt = ""
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("File contains no section headers.\nfile: %q, line: %d\n%q", file, n+1, line)
		}
		m := repoOptRE.FindStringSubmatch(value)
		if m == nil || m[1] == "" {
			perr = append(perr, fmt.Sprintf("\t[line %2d]: %q", n+1, line))
			if m == nil {
				continue
			}
		}
		opt = strings.ToLower(strings.TrimRightFunc(m[1], unicode.IsSpace))
		k := cur.name + "\x00" + opt
		if seen["o\x00"+k] {
			return nil, fmt.Errorf("While reading from %q [line %2d]: option %q in section %q already exists", file, n+1, opt, cur.name)
		}
		seen["o\x00"+k] = true
		parts[k] = []string{strings.TrimSpace(m[3])}
		cur.set(opt, "")
	}
	for _, s := range append([]*repoSection{ini.defaults}, ini.sections...) {
		for _, o := range s.keys {
			s.vals[o] = strings.TrimRightFunc(strings.Join(parts[s.name+"\x00"+o], "\n"), unicode.IsSpace)
		}
	}
	if len(perr) > 0 {
		return nil, fmt.Errorf("Source contains parsing errors: %q\n%s", file, strings.Join(perr, "\n"))
	}
	return ini, nil
}

// section returns the section named name, nil when there is none.
func (ini *repoINI) section(name string) *repoSection {
	for _, s := range ini.sections {
		if s.name == name {
			return s
		}
	}
	return nil
}

// remove drops the section named name.
func (ini *repoINI) remove(name string) {
	for i, s := range ini.sections {
		if s.name == name {
			ini.sections = append(ini.sections[:i], ini.sections[i+1:]...)
			return
		}
	}
}

// write is the file RawConfigParser.write makes: DEFAULT first (when it
// has options), each section followed by an empty line, continuation
// lines indented by a tab.
func (ini *repoINI) write() string {
	var b strings.Builder
	all := ini.sections
	if len(ini.defaults.keys) > 0 {
		all = append([]*repoSection{ini.defaults}, all...)
	}
	for _, s := range all {
		fmt.Fprintf(&b, "[%s]\n", s.name)
		for _, k := range s.keys {
			fmt.Fprintf(&b, "%s = %s\n", k, strings.ReplaceAll(s.vals[k], "\n", "\n\t"))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// dump is yum_repository's picture of the file, which decides whether
// it changed and is its diff: the sections sorted, each with its options
// and DEFAULT's, sorted.
func (ini *repoINI) dump() string {
	secs := append([]*repoSection(nil), ini.sections...)
	sort.Slice(secs, func(i, j int) bool { return secs[i].name < secs[j].name })
	var b strings.Builder
	for _, s := range secs {
		fmt.Fprintf(&b, "[%s]\n", s.name)
		items := map[string]string{}
		for k, v := range ini.defaults.vals {
			items[k] = v
		}
		for k, v := range s.vals {
			items[k] = v
		}
		keys := make([]string, 0, len(items))
		for k := range items {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s = %s\n", k, items[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}
