package files

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// iniEdit is one ini_file task: what it asks of the file's text.
type iniEdit struct {
	section, option             string
	values                      []string
	present, exclusive, noValue bool
	format                      string
	opt, active                 *regexp.Regexp
}

// iniFake names the section standing for the lines before the first
// section (ini_file's own trick, so its output is the same).
const iniFake = "ad01e11446efb704fcdbdb21f2c43757423d91c5"

// iniBlank matches a blank or comment line.
var iniBlank = regexp.MustCompile(`^[ \t]*([#;].*)?(?m:$)`)

// apply edits the text of an INI file as ini_file does, line by line,
// and returns the new text, whether it changed and ini_file's message.
func (e iniEdit) apply(text string) (string, bool, string) {
	ls, changed := iniLines(text)
	section := e.section
	if section == "" {
		section = iniFake
	}
	start, end, within := iniFind(ls, section)
	p := &iniPass{e: e, sec: slices.Clone(ls[start:end]), values: slices.Clone(e.values), changed: changed, msg: "OK"}
	p.touched = make([]bool, len(p.sec))
	switch {
	case e.present:
		if e.option != "" {
			p.setExisting()
		}
		// (ini_file fails here without an option; tender leaves the section be)
		if e.exclusive && !e.noValue && e.option != "" {
			p.dropOthers()
		}
		p.addMissing()
	case e.option != "":
		p.removeOption()
	case len(p.sec) > 0:
		p.sec, p.changed, p.msg = nil, true, "section removed"
	}
	ls = append(append(slices.Clone(ls[:start]), p.sec...), ls[end:]...)
	ls = ls[1 : len(ls)-1]
	if !within && e.present {
		ls = p.newSection(ls, section)
	}
	return strings.Join(ls, ""), p.changed, p.msg
}

// iniLines splits text into lines that keep their ends, the last given
// one when it lacks it (which changes the file), between a line opening
// the fake section for the lines before the first section and a "["
// line that ends the last one.
func iniLines(text string) ([]string, bool) {
	var ls []string
	for _, l := range splitLines([]byte(text)) {
		ls = append(ls, string(l))
	}
	changed := false
	if len(ls) == 0 {
		ls = append(ls, "\n")
	}
	if last := ls[len(ls)-1]; !strings.HasSuffix(last, "\n") {
		ls[len(ls)-1] += "\n"
		changed = true
	}
	return append(append([]string{"[" + iniFake + "]"}, ls...), "["), changed
}

// iniFind returns where section's lines start and end in ls (its header
// included), and whether it is there at all.
func iniFind(ls []string, section string) (start, end int, within bool) {
	for i, l := range ls {
		if strings.HasPrefix(l, "["+section+"]") {
			within, start = true, i
		} else if strings.HasPrefix(l, "[") && within {
			return start, i, true
		}
	}
	return start, end, within
}

// iniPass is an edit at work on one section: its lines, which of them
// the edit set, the values not placed yet, and the verdict so far.
type iniPass struct {
	e              iniEdit
	sec            []string
	touched        []bool
	values         []string
	changed        bool
	msg            string
	noValuePresent bool
}

// set makes line i of the section line, noting a change.
func (p *iniPass) set(i int, line string) {
	if p.sec[i] != line {
		p.changed, p.msg = true, "option changed"
	}
	p.sec[i], p.touched[i] = line, true
}

// setExisting rewrites the option's lines (commented ones included) that
// hold one of the wanted values, or, with allow_no_value and no values,
// the first of them as a bare option.
func (p *iniPass) setExisting() {
	e := p.e
	for i, l := range p.sec {
		m := e.opt.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if len(p.values) > 0 && slices.Contains(p.values, m[6]) {
			if m[6] == "" && e.noValue {
				p.set(i, e.option+"\n")
				p.noValuePresent = true
			} else {
				p.set(i, fmt.Sprintf(e.format, e.option, m[6]))
			}
			p.values = removeStr(p.values, m[6])
		} else if len(p.values) == 0 && e.noValue {
			p.set(i, e.option+"\n")
			p.noValuePresent = true
			return
		}
	}
}

// dropOthers (exclusive) gives the option's other lines the values not
// placed yet, then removes the option's lines left over.
func (p *iniPass) dropOthers() {
	e := p.e
	for i, l := range p.sec {
		if len(p.values) == 0 {
			break
		}
		if !p.touched[i] && e.opt.MatchString(l) {
			p.set(i, fmt.Sprintf(e.format, e.option, p.values[0]))
			p.values = p.values[1:]
		}
	}
	for i := len(p.sec) - 1; i > 0; i-- {
		if !p.touched[i] && e.opt.MatchString(p.sec[i]) {
			p.sec = append(p.sec[:i], p.sec[i+1:]...)
			p.touched = append(p.touched[:i], p.touched[i+1:]...)
			p.changed, p.msg = true, "option changed"
		}
	}
}

// addMissing adds the values not placed yet (or the bare option) after
// the section's last line that is neither blank nor a comment.
func (p *iniPass) addMissing() {
	e := p.e
	for i := len(p.sec); i > 0; i-- {
		if iniBlank.MatchString(p.sec[i-1]) {
			continue
		}
		var add []string
		switch {
		case e.option != "" && len(p.values) > 0:
			for _, v := range p.values {
				add = append(add, fmt.Sprintf(e.format, e.option, v))
			}
		case e.option != "" && len(p.values) == 0 && e.noValue && !p.noValuePresent:
			add = []string{e.option + "\n"}
		}
		if len(add) > 0 {
			p.sec = append(p.sec[:i], append(add, p.sec[i:]...)...)
			p.changed, p.msg = true, "option added"
		}
		return
	}
}

// removeOption (state=absent) removes the option's active lines: every
// one when exclusive, else those holding one of the values.
func (p *iniPass) removeOption() {
	e := p.e
	var keep []string
	for _, l := range p.sec {
		m := e.active.FindStringSubmatch(l)
		if m == nil || !e.exclusive && !slices.Contains(p.values, m[6]) {
			keep = append(keep, l)
		}
	}
	if (e.exclusive || len(p.values) > 0) && len(keep) != len(p.sec) {
		p.sec, p.changed, p.msg = keep, true, "option changed"
	}
}

// newSection appends the section, missing from ls, with the option's
// values (or the bare option), as ini_file adds it.
func (p *iniPass) newSection(ls []string, section string) []string {
	e := p.e
	ls = append(ls, "["+section+"]\n")
	p.msg = "section and option added"
	switch {
	case e.option != "" && len(p.values) > 0:
		for _, v := range p.values {
			ls = append(ls, fmt.Sprintf(e.format, e.option, v))
		}
	case e.option != "" && e.noValue:
		ls = append(ls, e.option+"\n")
	default:
		p.msg = "only section added"
	}
	p.changed = true
	return ls
}

// removeStr returns l without the first s in it.
func removeStr(l []string, s string) []string {
	for i, x := range l {
		if x == s {
			return append(l[:i:i], l[i+1:]...)
		}
	}
	return l
}
