package expr

import (
	"errors"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"syscall"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/pykv"
)

// csvfileLookup is csvfile: for each term, a key (the words of the term
// that are not option=value, as parse_kv joins them) looked up in the
// first column of a CSV file (file=ansible.csv, delimiter=TAB,
// encoding=utf-8), giving column col=1 of the first matching row, or
// default= (nothing when not set; a list default gives its items). As in
// Ansible, options written in a term last for the terms after it, and
// options given to the lookup that it does not know are ignored.
func csvfileLookup(ev *evaluator, terms []any, kw map[string]any) ([]any, error) {
	o := map[string]any{"col": "1", "default": nil, "delimiter": "TAB", "file": "ansible.csv", "encoding": "utf-8"}
	for k, v := range kw {
		if _, ok := o[k]; ok {
			o[k] = v
		}
	}
	env := envOf(ev.scope)
	out := []any{}
	for _, t := range terms {
		term, ok := text(t)
		if !ok {
			return nil, &ansibleError{"AttributeError", "'" + typeName(t) + "' object has no attribute 'split'"}
		}
		keys, kv, err := pykv.SplitKVKeys(term)
		if err != nil {
			return nil, &ansibleError{"ansible.errors.AnsibleParserError", err.Error() + ": " + term}
		}
		key, ok := kv["_raw_params"]
		if !ok {
			return nil, ansibleErrorf("Search key is required but was not found")
		}
		for _, k := range keys {
			if k == "_raw_params" {
				continue
			}
			if _, known := o[k]; !known {
				return nil, ansibleErrorf("%s is not a valid option", k)
			}
			o[k] = kv[k]
		}
		if d, ok := text(o["delimiter"]); ok && d == "TAB" {
			o["delimiter"] = "\t"
		}
		v, err := readCSV(env, Str(o["file"]), key.(string), Str(o["delimiter"]), Str(o["encoding"]), o["default"], o["col"])
		if err != nil {
			return nil, err
		}
		if l, ok := v.([]any); ok {
			out = append(out, l...)
		} else if v != nil {
			out = append(out, v)
		}
	}
	return out, nil
}

// readCSV finds name as Ansible's lookups find files and returns column
// col of the first row whose first field is key, or def. Its failures are
// Python's, after "csvfile: ": a file not found is opened as "None" (with
// a warning first), as Ansible does; the file is opened before the
// delimiter is checked.
func readCSV(env *Env, name, key, delim, encoding string, def, col any) (any, error) {
	p, found, err := env.find(name)
	if err != nil {
		return nil, err
	}
	if !found {
		if env != nil && env.Warn != nil {
			env.Warn("Unable to find '" + name + "' in expected paths (use -vvvvv to see paths)")
		}
		// Ansible opens the path None stands for; tender reads nothing.
		return nil, ansibleErrorf("csvfile: [Errno 2] No such file or directory: b'None'")
	}
	b, err := readFile(env, p)
	if err != nil {
		var de *deniedError
		if errors.As(err, &de) {
			return nil, err
		}
		return nil, ansibleErrorf("csvfile: %s", pyOSError(err, p))
	}
	if len([]rune(delim)) != 1 {
		return nil, ansibleErrorf("csvfile: \"delimiter\" must be a 1-character string")
	}
	s, err := decodeText(b, encoding)
	if err != nil {
		return nil, ansibleErrorf("csvfile: %s", Message(err))
	}
	for _, row := range csvRows(s, []rune(delim)[0]) {
		if len(row) == 0 || row[0] != key {
			continue
		}
		c, err := pyIntOf(col)
		if err != nil {
			return nil, ansibleErrorf("csvfile: %s", err)
		}
		if c < 0 {
			c += len(row)
		}
		if c < 0 || c >= len(row) {
			return nil, ansibleErrorf("csvfile: list index out of range")
		}
		return row[c], nil
	}
	return def, nil
}

// PyInt is Python's int(v) for a template's value: a bool or an int as it
// is, a float truncated, a string read in base 10 (Python's ValueError
// or TypeError when it does not convert).
func PyInt(v any) (int, error) { return pyIntOf(v) }

// pyIntOf is Python's int(v) for the values an option can hold: a bool or
// an int as it is, a float truncated, a string read in base 10.
func pyIntOf(v any) (int, error) {
	if n, ok := integer(v); ok {
		return n, nil
	}
	if f, ok := v.(float64); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return int(f), nil
	}
	if s, ok := text(v); ok {
		if n, ok := pyInt(s, 10); ok {
			return n, nil
		}
		return 0, errorf("invalid literal for int() with base 10: %s", Repr(s))
	}
	return 0, errorf("int() argument must be a string, a bytes-like object or a real number, not '%s'", typeName(v))
}

// pyOSError is how Python words an OSError of opening path:
// "[Errno 2] No such file or directory: b'/x'" (the path as bytes, as
// Ansible opens it).
func pyOSError(err error, path string) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		if errors.Is(err, fs.ErrNotExist) {
			errno = syscall.ENOENT
		} else {
			return Message(err)
		}
	}
	msg := errno.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	return "[Errno " + strconv.Itoa(int(errno)) + "] " + msg + ": " + pyfmt.BytesRepr(path)
}

// csvRows parses CSV as Python's csv.reader does with the excel dialect
// (quotechar ", doubled quotes, not strict) and the given delimiter.
func csvRows(s string, delim rune) [][]string {
	var rows [][]string
	var row []string
	var field strings.Builder
	const (
		startRecord = iota
		startField
		inField
		inQuoted
		quoteInQuoted
	)
	state := startRecord
	save := func() { row = append(row, field.String()); field.Reset() }
	end := func() { rows = append(rows, row); row = nil }
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		eol := c == '\n' || c == '\r'
		if eol && c == '\r' && i+1 < len(rs) && rs[i+1] == '\n' && state != inQuoted {
			i++
		}
		switch state {
		case startRecord:
			if eol {
				end()
				continue
			}
			state = startField
			fallthrough
		case startField:
			switch {
			case eol:
				save()
				end()
				state = startRecord
			case c == '"':
				state = inQuoted
			case c == delim:
				save()
			default:
				field.WriteRune(c)
				state = inField
			}
		case inField:
			switch {
			case eol:
				save()
				end()
				state = startRecord
			case c == delim:
				save()
				state = startField
			default:
				field.WriteRune(c)
			}
		case inQuoted:
			if c == '"' {
				state = quoteInQuoted
			} else {
				field.WriteRune(c)
			}
		case quoteInQuoted:
			switch {
			case c == '"':
				field.WriteRune('"')
				state = inQuoted
			case c == delim:
				save()
				state = startField
			case eol:
				save()
				end()
				state = startRecord
			default:
				field.WriteRune(c)
				state = inField
			}
		}
	}
	if state != startRecord {
		save()
		end()
	}
	return rows
}
