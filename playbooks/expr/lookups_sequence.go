package expr

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/internal/pykv"
)

// sequenceShortcut is the short form of a sequence term,
// "[start-]end[/stride][:format]", its numbers in hex digits with an
// optional 0 and x before them (case-insensitive). As with Python's "$",
// one newline may end the term.
var sequenceShortcut = regexp.MustCompile(`(?i)^(?:(0?x?[0-9a-f]+)-)?(0?x?[0-9a-f]+)(?:/(0?x?[0-9a-f]+))?(?::(.+))?\n?$`)

// seqSpec is one term of the sequence lookup, read.
type seqSpec struct {
	start, stride int
	end, count    *int
	format        string
}

// sequence is Ansible's sequence lookup (with_sequence): each term, in the
// short form or as start= end= count= stride= format= pairs, gives the
// numbers from start to end (or count of them) by stride, each formatted
// with a printf-style format. Options given to the lookup itself are
// ignored, as Ansible ignores them.
func sequence(terms []any) ([]any, error) {
	out := []any{}
	for _, t := range terms {
		term, ok := text(t)
		if !ok {
			// Ansible matches its pattern against the term and fails
			// with Python's TypeError.
			return nil, ansibleErrorf("unknown error parsing with_sequence arguments: %s. Error was: expected string or bytes-like object, got '%s'", Repr(t), typeName(t))
		}
		sp := seqSpec{start: 1, stride: 1, format: "%d"}
		ok, err := sp.shortcut(term)
		if err == nil && !ok {
			err = sp.keyValues(term)
		}
		if err == nil {
			err = sp.check()
		}
		if err != nil {
			return nil, err
		}
		if out, err = sp.generate(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// shortcut reads the short form; false when term is not in it.
func (sp *seqSpec) shortcut(term string) (bool, error) {
	m := sequenceShortcut.FindStringSubmatchIndex(term)
	if m == nil {
		return false, nil
	}
	group := func(i int) (string, bool) {
		if m[2*i] < 0 {
			return "", false
		}
		return term[m[2*i]:m[2*i+1]], true
	}
	for i, name := range []string{"start", "end", "stride"} {
		s, ok := group(i + 1)
		if !ok {
			continue
		}
		n, ok := pyInt(s, 0)
		if !ok {
			return false, ansibleErrorf("can't parse %s=%s as integer", name, s)
		}
		switch name {
		case "start":
			sp.start = n
		case "end":
			sp.end = &n
		default:
			sp.stride = n
		}
	}
	if f, ok := group(4); ok {
		sp.format = f
	}
	return true, nil
}

// keyValues reads the k=v form as Ansible's parse_kv splits it: numbers
// are read in the order start, end, count, stride, and any word left over
// (free words count as "_raw_params") is an error.
func (sp *seqSpec) keyValues(term string) error {
	keys, args, err := pykv.SplitKVKeys(term)
	if err != nil {
		return &ansibleError{"ansible.errors.AnsibleParserError", fmt.Sprintf("%v: %s", err, term)}
	}
	for _, name := range []string{"start", "end", "count", "stride"} {
		v, ok := args[name]
		if !ok {
			continue
		}
		delete(args, name)
		n, ok := pyInt(v.(string), 0)
		if !ok {
			return ansibleErrorf("can't parse %s=%s as integer", name, v)
		}
		switch name {
		case "start":
			sp.start = n
		case "end":
			sp.end = &n
		case "count":
			sp.count = &n
		default:
			sp.stride = n
		}
	}
	if f, ok := args["format"]; ok {
		sp.format = f.(string)
		delete(args, "format")
	}
	var left []any
	for _, k := range keys {
		if _, ok := args[k]; ok {
			left = append(left, k)
		}
	}
	if len(left) > 0 {
		return ansibleErrorf("unrecognized arguments to with_sequence: %s", Repr(left))
	}
	return nil
}

// check applies Ansible's rules: end or count (not both), a stride that
// goes towards end, one % in the format. A count of 0 gives no numbers.
func (sp *seqSpec) check() error {
	switch {
	case sp.count == nil && sp.end == nil:
		return ansibleErrorf("must specify count or end in with_sequence")
	case sp.count != nil && sp.end != nil:
		return ansibleErrorf("can't specify both count and end in with_sequence")
	case sp.count != nil && *sp.count != 0:
		e := sp.start + *sp.count*sp.stride - 1
		sp.end = &e
	case sp.count != nil:
		zero := 0
		sp.start, sp.stride, sp.end = 0, 0, &zero
	}
	if sp.stride > 0 && *sp.end < sp.start {
		return ansibleErrorf("to count backwards make stride negative")
	}
	if sp.stride < 0 && *sp.end > sp.start {
		return ansibleErrorf("to count forward don't make stride negative")
	}
	if strings.Count(sp.format, "%") != 1 {
		return ansibleErrorf("bad formatting string: %s", sp.format)
	}
	return nil
}

// generate appends the formatted numbers of Python's
// range(start, end±1, stride) to out.
func (sp *seqSpec) generate(out []any) ([]any, error) {
	if sp.stride == 0 {
		return out, nil
	}
	for i := sp.start; sp.stride > 0 && i <= *sp.end || sp.stride < 0 && i >= *sp.end; i += sp.stride {
		if len(out) >= maxItems {
			return nil, ansibleErrorf("sequence too long")
		}
		s, err := percentFormat(sp.format, i)
		if err != nil {
			return nil, ansibleErrorf("problem formatting %d with %s", i, Repr(sp.format))
		}
		out = append(out, s)
	}
	return out, nil
}
