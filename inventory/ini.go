package inventory

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/hostpattern"
	"github.com/tender-sh/tender/internal/pyfmt"
)

// ParseError is an error in an inventory source at a position. Line and Col
// are 1-based; Col is 0 when only the line is known.
type ParseError struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the error as "file:line:col: msg".
func (e *ParseError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

var (
	reSection   = regexp.MustCompile(`^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?$`)
	reGroupName = regexp.MustCompile(`^([^:\]\s]+)\s*(?:#.*)?$`)
)

type pendingDecl struct {
	line    int
	col     int
	state   string
	parents []string
}

type iniParser struct {
	inv     *Inventory
	file    string
	lineNo  int
	indent  int // bytes of leading white space stripped from the line
	raw     string
	pending map[string]*pendingDecl
	order   []string
}

// ParseINI adds the hosts and groups of an INI inventory (Ansible's ini
// plugin format) to inv. name is used in error messages only. Hosts and
// groups parsed before an error stay in inv, as in Ansible; callers that
// need all-or-nothing parse into a fresh inventory.
func (inv *Inventory) ParseINI(name string, src []byte) error {
	defer inv.changed()
	p := &iniParser{inv: inv, file: name, pending: map[string]*pendingDecl{}}
	inv.source = name
	err := p.parse(src)
	inv.source = ""
	inv.reconcile()
	return err
}

func (p *iniParser) errf(col int, format string, args ...any) error {
	if col > 0 {
		col = utf8.RuneCountInString(p.raw[:min(len(p.raw), p.indent+col-1)]) + 1
	}
	return &ParseError{File: p.file, Line: p.lineNo, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// col is the 1-based column where the current line's text starts.
func (p *iniParser) col() int { return utf8.RuneCountInString(p.raw[:p.indent]) + 1 }

func (p *iniParser) parse(src []byte) error {
	group, state := "ungrouped", "hosts"
	for i, raw := range pyLines(string(src)) {
		p.lineNo, p.raw = i+1, raw
		line := strings.TrimFunc(raw, pyfmt.IsSpace)
		p.indent = strings.Index(raw, line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if !utf8.ValidString(line) {
			return p.errf(1, "invalid UTF-8")
		}
		if m := reSection.FindStringSubmatch(line); m != nil {
			group, state = m[1], m[2]
			if state == "" {
				state = "hosts"
			}
			if state != "hosts" && state != "children" && state != "vars" {
				return p.errf(1, "Section [%s:%s] has unknown type: %s", m[1], m[2], state)
			}
			if p.inv.groups[group] == nil {
				if _, ok := p.pending[group]; state == "vars" && !ok {
					p.addPending(group, &pendingDecl{line: p.lineNo, col: p.col(), state: state})
				}
				p.inv.addGroup(group)
			}
			if d := p.pending[group]; d != nil && state != "vars" {
				if d.state == "children" {
					if err := p.addPendingChildren(group); err != nil {
						return err
					}
				} else {
					p.removePending(group)
				}
			}
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			return p.errf(1, "Invalid section entry: '%s'. Please make sure that there are no spaces in the section entry, and that there are no other invalid characters", line)
		}
		var err error
		switch state {
		case "hosts":
			err = p.hostLine(line, group)
		case "vars":
			err = p.varLine(line, group)
		case "children":
			err = p.childLine(line, group)
		}
		if err != nil {
			return err
		}
	}
	for _, g := range p.order {
		d := p.pending[g]
		e := &ParseError{File: p.file, Line: d.line, Col: d.col}
		if d.state == "vars" {
			e.Msg = fmt.Sprintf("Section [%s:vars] not valid for undefined group: %s", g, g)
		} else {
			e.Msg = fmt.Sprintf("Section [%s:children] includes undefined group: %s", d.parents[len(d.parents)-1], g)
		}
		return e
	}
	return nil
}

func (p *iniParser) addPending(g string, d *pendingDecl) {
	p.pending[g] = d
	p.order = append(p.order, g)
}

func (p *iniParser) removePending(g string) {
	delete(p.pending, g)
	for i, x := range p.order {
		if x == g {
			p.order = append(p.order[:i:i], p.order[i+1:]...)
			break
		}
	}
}

func (p *iniParser) addPendingChildren(g string) error {
	d := p.pending[g]
	p.removePending(g)
	for _, parent := range d.parents {
		if err := p.inv.addChild(parent, g); err != nil {
			return p.errf(0, "%v", err)
		}
		if pd := p.pending[parent]; pd != nil && pd.state == "children" {
			if err := p.addPendingChildren(parent); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *iniParser) childLine(line, group string) error {
	m := reGroupName.FindStringSubmatch(line)
	if m == nil {
		return p.errf(1, "Expected group name, got: %s", line)
	}
	child := m[1]
	if p.inv.groups[child] == nil {
		if d := p.pending[child]; d != nil {
			d.parents = append(d.parents, group)
		} else {
			p.addPending(child, &pendingDecl{line: p.lineNo, col: p.col(), state: "children", parents: []string{group}})
		}
		return nil
	}
	if err := p.inv.addChild(group, child); err != nil {
		return p.errf(1, "%v", err)
	}
	return nil
}

func (p *iniParser) varLine(line, group string) error {
	k, v, ok := strings.Cut(line, "=")
	if !ok {
		return p.errf(1, "Expected key=value, got: %s", line)
	}
	if err := p.inv.setGroupVar(p.inv.groups[group], strings.TrimSpace(k), iniValue(strings.TrimSpace(v))); err != nil {
		return p.errf(len(k)+2, "%v", err)
	}
	return nil
}

func (p *iniParser) hostLine(line, group string) error {
	toks, err := shlexSplit(line)
	if err != nil {
		return p.errf(1, "Error parsing host definition '%s': %v", line, err)
	}
	if len(toks) == 0 {
		return p.errf(1, "Expected a host name, got: %s", line)
	}
	names, port, err := expandHostPattern(toks[0].text, true)
	if err != nil {
		return p.errf(toks[0].pos+1, "%v", err)
	}
	type kv struct {
		k string
		v any
	}
	var vars []kv
	for _, t := range toks[1:] {
		k, v, ok := strings.Cut(t.text, "=")
		if !ok {
			return p.errf(t.pos+1, "Expected key=value host variable assignment, got: %s", t.text)
		}
		vars = append(vars, kv{k, iniValue(v)})
	}
	g := p.inv.groups[group]
	for _, n := range names {
		if n == "" {
			return p.errf(toks[0].pos+1, "Invalid empty host name provided: %s", n)
		}
		h := p.inv.addHost(n, port)
		g.addHost(h)
		for _, x := range vars {
			p.inv.setHostVar(h, x.k, x.v)
		}
	}
	return nil
}

// expandHostPattern splits an optional port off a host entry and expands
// its ranges, as Ansible's _expand_hostpattern (with the INI plugin's extra
// checks when ini is true).
func expandHostPattern(pattern string, ini bool) ([]string, int, error) {
	host, port, ok := hostpattern.ParseAddress(pattern)
	if !ok {
		host, port = pattern, 0
	}
	names, err := expandRange(host)
	if err != nil {
		return nil, 0, err
	}
	if ini {
		if strings.HasSuffix(strings.TrimSpace(pattern), ":") && port == 0 {
			return nil, 0, fmt.Errorf("Invalid host pattern '%s' supplied, ending in ':' is not allowed, this character is reserved to provide a port.", pattern)
		}
		for _, n := range names {
			if strings.TrimSpace(n) == "---" {
				return nil, 0, fmt.Errorf("Invalid host pattern '%s' supplied, '---' is normally a sign this is a YAML file.", pattern)
			}
		}
	}
	return names, port, nil
}

// pyLines splits text into lines as Python's str.splitlines does.
func pyLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			out = append(out, s[start:i])
			i += size
			if r == '\r' && i < len(s) && s[i] == '\n' {
				i++
			}
			start = i
			continue
		}
		i += size
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
