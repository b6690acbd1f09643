package expr

import (
	"errors"
	"strings"
)

// indexedItemsLookup is indexed_items: [index, item] for each item of the
// terms, flattened one level.
func indexedItemsLookup(_ *evaluator, terms []any, _ map[string]any) ([]any, error) {
	items := flatten(terms, 1, false)
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = []any{i, it}
	}
	return out, nil
}

// varnamesLookup is varnames: the names of the variables that a term (a
// regular expression) matches anywhere, in the order of the variables
// (DIFFERENCES.md item 10).
func varnamesLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	k := keyedBelow(ev.scope)
	if k == nil {
		return nil, errorf("No variables available to search")
	}
	names := k.Keys()
	out := []any{}
	for _, t := range terms {
		pat, ok := text(t)
		if !ok {
			return nil, errorf("Invalid setting identifier, \"%s\" is not a string, it is a %s", Str(t), typeName(t))
		}
		re, err := compileRegex(pat, false, false, false)
		if err != nil {
			return nil, errorf("Unable to use \"%s\" as a search parameter: %v", pat, err)
		}
		for _, n := range names {
			if re.MatchString(n) {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// keyedBelow finds the variables under template-local frames.
func keyedBelow(s Scope) Keyed {
	for {
		switch t := s.(type) {
		case *local:
			s = t.parent
		case withoutLoop:
			s = t.frame
		case *resolving:
			return t.v
		case Keyed:
			return t
		default:
			return nil
		}
	}
}

// csvfileLookup is csvfile: for each term, a key (the words of the term
// that are not option=value) looked up in the first column of a CSV file
// (file=ansible.csv, delimiter=TAB, encoding=utf-8), giving column col=1
// of the first matching row, or default= (nothing when not set).
func csvfileLookup(ev *evaluator, terms []any, kw map[string]any) ([]any, error) {
	o := map[string]any{"col": "1", "default": nil, "delimiter": "TAB", "file": "ansible.csv", "encoding": "utf-8"}
	for k, v := range kw {
		if _, ok := o[k]; !ok {
			return nil, fatalf("Invalid option: %s is not a valid option for the csvfile lookup", k)
		}
		o[k] = v
	}
	env := envOf(ev.scope)
	out := []any{}
	for _, t := range terms {
		kv, raw := parseKV(Str(t))
		if len(raw) == 0 {
			return nil, errorf("Search key is required but was not found")
		}
		for k, v := range kv {
			if _, ok := o[k]; !ok {
				return nil, errorf("%s is not a valid option", k)
			}
			o[k] = v
		}
		delim := Str(o["delimiter"])
		if delim == "TAB" || delim == `\t` {
			delim = "\t"
		}
		name := Str(o["file"])
		p, err := locate(env, name, func(name string) error {
			return errorf("csvfile: could not locate file in lookup: %s", name)
		})
		if err != nil {
			return nil, err
		}
		v, err := readCSV(env, p, strings.Join(raw, " "), delim, Str(o["encoding"]), o["default"], o["col"])
		if err != nil {
			return nil, err
		}
		if v != nil {
			out = append(out, v)
		}
	}
	return out, nil
}

func readCSV(env *Env, path, key, delim, encoding string, def, col any) (any, error) {
	if len([]rune(delim)) != 1 {
		return nil, errorf("csvfile: \"delimiter\" must be a 1-character string")
	}
	s, err := readText(env, path, encoding)
	if err != nil {
		return nil, errorf("csvfile: %v", err)
	}
	for _, row := range csvRows(s, []rune(delim)[0]) {
		if len(row) > 0 && row[0] == key {
			c, ok := integer(col)
			if cs, isText := text(col); isText {
				c, ok = pyInt(cs, 10)
			}
			if !ok {
				return nil, errorf("csvfile: invalid literal for int() with base 10: %s", Repr(col))
			}
			if c < 0 {
				c += len(row)
			}
			if c < 0 || c >= len(row) {
				return nil, errorf("csvfile: list index out of range")
			}
			return row[c], nil
		}
	}
	return def, nil
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

// inventoryHostnamesLookup is inventory_hostnames: the hosts of the
// variable groups (every group's host list) that a host pattern matches,
// with Ansible's pattern rules: patterns split on "," (or ":"), "&"
// intersects, "!" excludes, * ? [] are globs, ~ starts a regular
// expression, [i] and [i:j] pick hosts of a match.
func inventoryHostnamesLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	gv, ok, err := lookupIn(ev.scope, "groups", ev.st.b)
	if err != nil {
		return nil, err
	}
	groups, isMap := gv.(map[string]any)
	if !ok || !isMap {
		return nil, errorf("the inventory_hostnames lookup needs the variable 'groups' (a dict of host lists)")
	}
	inv := &hostInventory{groups: map[string][]string{}}
	order := []string{"all", "ungrouped"}
	for _, g := range sortedKeys(groups) {
		if g != "all" && g != "ungrouped" {
			order = append(order, g)
		}
	}
	seen := map[string]bool{}
	for _, g := range order {
		hosts, present := groups[g]
		inv.groupOrder = append(inv.groupOrder, g)
		if !present {
			continue
		}
		items, err := iterate(hosts)
		if err != nil {
			return nil, errorf("groups[%s] is not a list of hosts", Repr(g))
		}
		for _, h := range items {
			name := Str(h)
			inv.groups[g] = append(inv.groups[g], name)
			if !seen[name] {
				seen[name] = true
				inv.hosts = append(inv.hosts, name)
			}
		}
	}
	var patterns []string
	for _, t := range terms {
		s, ok := text(t)
		if !ok {
			return nil, errorf("the inventory_hostnames lookup takes host patterns as strings, got %s", typeName(t))
		}
		patterns = append(patterns, splitHostPattern(s)...)
	}
	hosts, err := inv.evaluate(patterns)
	var fe *fatalError
	if errors.As(err, &fe) {
		return []any{}, nil // Ansible's lookup answers [] when the pattern fails
	}
	if err != nil {
		return nil, err
	}
	return toList(hosts), nil
}
