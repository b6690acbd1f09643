package expr

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/tender-sh/tender/internal/pyini"
)

// iniOptions are the ini lookup's options, in the order Ansible declares
// them (inline "name=value" words are matched against them in this order).
var iniOptions = []string{"_terms", "type", "file", "section", "re", "encoding", "default", "case_sensitive", "allow_no_value"}

// iniLookup is ansible-core's ini lookup: for each term (a key, or a key
// followed by inline "option=value" words) the value of that key in a
// section of an INI file (type=ini) or in a Java properties file
// (type=properties), default= when the key is missing; with re=true the
// key is a regular expression matched at the start of the names and every
// matching value is returned. The file is found like the file lookup's.
// Options set inline stay set for the following terms and keep their
// text: re=false inline is a non-empty string, hence true, as in Ansible.
func iniLookup(ev *evaluator, terms []any, kw map[string]any) ([]any, error) {
	o, err := iniOptionValues(kw)
	if err != nil {
		return nil, err
	}
	cp := pyini.New(pyini.Options{CaseSensitive: Truthy(o["case_sensitive"]), AllowNoValue: Truthy(o["allow_no_value"]), MaxSize: maxSize})
	env := envOf(ev.scope)
	out := []any{}
	for _, t := range terms {
		term, ok := text(t)
		if !ok {
			return nil, errorf("the ini lookup takes keys as strings, got %s", typeName(t))
		}
		key := term
		if strings.Contains(term, "=") || strings.Contains(strings.TrimFunc(term, pySpace), " ") {
			params := iniInlineParams(term)
			updated := false
			for _, param := range params {
				if !strings.Contains(param, "=") {
					if key == term {
						key, updated = param, true
					}
					continue
				}
				parts := strings.Split(param, "=")
				if len(parts) != 2 {
					return nil, errorf("Could not use '%s' from %s: too many values to unpack (expected 2)", param, Repr(toList(params)))
				}
				if !contains(iniOptions, parts[0]) {
					return nil, errorf("%s is not a valid option.", parts[0])
				}
				o[parts[0]] = parts[1]
			}
			if !updated {
				return nil, fatalf("No key to lookup was provided as first term with in string inline options: %s", term)
			}
		}
		file := Str(o["file"])
		path, err := locate(env, file, func(name string) error {
			return errorf("Unable to find '%s' in expected paths", name)
		})
		if err != nil {
			return nil, err
		}
		content, err := readText(env, path, Str(o["encoding"]))
		if err != nil {
			return nil, err
		}
		if Str(o["type"]) == "properties" {
			content = "[java_properties]\n" + content
			o["section"] = "java_properties"
		}
		if err := cp.Read(content); err != nil {
			var dup *pyini.DuplicateError
			if errors.As(err, &dup) {
				return nil, errorf("Duplicate option in '%s': %s", file, dup.Msg)
			}
			return nil, errorf("%s", err)
		}
		vals, err := iniValues(cp, key, Str(o["section"]), o)
		var ns *pyini.NoSectionError
		if errors.As(err, &ns) {
			return nil, errorf("No section '%s' in %s", ns.Section, file)
		}
		var pe *pyini.Error
		if errors.As(err, &pe) {
			return nil, errorf("%s", pe.Msg)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, vals...)
	}
	return out, nil
}

// iniValues is what one key yields: every value whose name the regular
// expression key matches (re), else the key's value or default=; a
// valueless key (allow_no_value) yields nothing.
func iniValues(cp *pyini.Parser, key, section string, o map[string]any) ([]any, error) {
	if Truthy(o["re"]) {
		keys, vals, err := cp.Items(section)
		if err != nil {
			return nil, err
		}
		re, err := compileRegex(nil, key, false, false)
		if err != nil {
			return nil, err
		}
		out := []any{}
		for i, k := range keys {
			m, err := re.Match(k)
			if err != nil {
				return nil, errorf("%v", err)
			}
			if m != nil {
				out = append(out, vals[i])
			}
		}
		return out, nil
	}
	v, found, err := cp.Get(section, key)
	if err != nil {
		return nil, err
	}
	if !found {
		v = o["default"]
	}
	switch t := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return t, nil
	}
	return []any{v}, nil
}

// iniOptionValues turns the lookup's keyword arguments into its options,
// with Ansible's defaults and types (re and allow_no_value, alias
// allow_none, are booleans; text options lose surrounding quotes).
func iniOptionValues(kw map[string]any) (map[string]any, error) {
	o := map[string]any{"_terms": nil, "type": "ini", "file": "ansible.ini", "section": "global", "re": false,
		"encoding": "utf-8", "default": "", "case_sensitive": false, "allow_no_value": false}
	if v, ok := kw["allow_none"]; ok {
		if _, set := kw["allow_no_value"]; !set {
			kw = copyMap(kw)
			kw["allow_no_value"] = v
		}
	}
	for k, v := range kw {
		if !contains(iniOptions, k) || k == "_terms" || v == nil {
			continue
		}
		switch k {
		case "re", "allow_no_value":
			o[k] = ansibleBool(v)
		default:
			if s, ok := text(v); ok {
				v = unquote(s)
			}
			o[k] = v
		}
	}
	if t := o["type"]; t != "ini" && t != "properties" {
		return nil, fatalf("Invalid value \"%s\" for configuration option \"plugin_type: lookup plugin: ini setting: type \", valid values are: ini, properties", Str(t))
	}
	return o, nil
}

// iniInlineParams splits "key words opt=value more words" into the key
// and "opt=value" pieces as Ansible's ini lookup does: a word containing
// "OPTION=" starts that option, other words extend the current piece.
func iniInlineParams(term string) []string {
	params := map[string]string{}
	var keys []string
	this := "key"
	for i, word := range strings.FieldsFunc(term, pySpace) {
		if strings.Contains(word, "=") {
			for _, k := range iniOptions {
				if strings.Contains(word, k+"=") {
					this = k
				}
			}
		}
		if i == 0 || params[this] == "" {
			params[this] = word
			keys = append(keys, this)
		} else {
			params[this] += " " + word
		}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = params[k]
	}
	return out
}

// readText reads a controller file (at most maxSize bytes) and decodes it
// from encoding: UTF-8 (utf-8-sig drops a byte order mark), ASCII,
// ISO-8859-1, ISO-8859-15 or UTF-16. Undecodable bytes are kept as they
// are, as Python's surrogateescape keeps them.
func readText(env *Env, path, encoding string) (string, error) {
	b, err := readFile(env, path)
	if err != nil {
		return "", err
	}
	return decodeText(b, encoding)
}

// readFile reads a controller file for a lookup, refusing one larger than
// maxSize (a device such as /dev/zero included) instead of exhausting
// memory. It opens the file through env's sandbox (Sandbox.Open).
func readFile(env *Env, path string) ([]byte, error) {
	f, err := env.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSize {
		return nil, errorf("%s is larger than %d bytes", path, maxSize)
	}
	return b, nil
}

// normEncoding is an encoding's name as Python's codec lookup normalizes
// it: lower case, runs of other characters as one underscore.
func normEncoding(encoding string) string {
	var norm strings.Builder
	for _, r := range strings.ToLower(encoding) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' {
			norm.WriteRune(r)
		} else if s := norm.String(); s != "" && !strings.HasSuffix(s, "_") {
			norm.WriteByte('_')
		}
	}
	return strings.TrimSuffix(norm.String(), "_")
}

func decodeText(b []byte, encoding string) (string, error) {
	norm := normEncoding(encoding)
	switch norm {
	case "utf_8", "utf8", "u8", "utf", "cp65001", "ascii", "us_ascii", "646", "us":
		return string(b), nil
	case "utf_8_sig", "utf8_sig":
		return strings.TrimPrefix(string(b), "\ufeff"), nil
	case "latin_1", "latin1", "latin", "l1", "iso_8859_1", "iso8859_1", "8859", "cp819", "iso_ir_100", "ibm819":
		return latinText(b, nil), nil
	case "iso8859_15", "iso_8859_15", "latin9", "latin_9", "l9":
		return latinText(b, map[byte]rune{0xa4: '€', 0xa6: 'Š', 0xa8: 'š', 0xb4: 'Ž', 0xb8: 'ž', 0xbc: 'Œ', 0xbd: 'œ', 0xbe: 'Ÿ'}), nil
	case "utf_16", "utf16", "utf_16_le", "utf_16le", "utf_16_be", "utf_16be":
		return utf16Text(b, norm)
	}
	return "", errorf("unknown encoding: %s", encoding)
}

func latinText(b []byte, over map[byte]rune) string {
	var s strings.Builder
	for _, c := range b {
		if r, ok := over[c]; ok {
			s.WriteRune(r)
		} else {
			s.WriteRune(rune(c))
		}
	}
	return s.String()
}

func utf16Text(b []byte, enc string) (string, error) {
	big := strings.Contains(enc, "be")
	if !strings.Contains(enc, "le") && !big && len(b) >= 2 {
		switch {
		case b[0] == 0xff && b[1] == 0xfe:
			b = b[2:]
		case b[0] == 0xfe && b[1] == 0xff:
			b, big = b[2:], true
		}
	}
	if len(b)%2 != 0 {
		return "", fmt.Errorf("'%s' codec can't decode the last byte: truncated data", enc)
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		if big {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u)), nil
}
