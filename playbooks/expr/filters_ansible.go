package expr

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/internal/yaml11"
)

// ansibleFilters are ansible-core's filters beyond the common ones: paths,
// dates, UUIDs, comments, maths and combinatorics.
var ansibleFilters = map[string]filterFunc{
	"to_uuid": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		nsv := argOr(args, kw, 0, "namespace", "361E6D51-FAEC-444A-9079-341386DA8E2E")
		ns, isText := text(nsv)
		if !isText {
			// Python's uuid.UUID(namespace) calls namespace.replace.
			return nil, errorf("Invalid value '%s' for 'namespace': '%s' object has no attribute 'replace'", Str(nsv), typeName(nsv))
		}
		nsb, ok := parseUUID(ns)
		if !ok {
			return nil, errorf("Invalid value '%s' for 'namespace': badly formed hexadecimal UUID string", ns)
		}
		h := sha1.Sum(append(nsb, []byte(Str(x))...))
		u := h[:16]
		u[6] = u[6]&0x0f | 0x50
		u[8] = u[8]&0x3f | 0x80
		s := hex.EncodeToString(u)
		return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:], nil
	},
	"from_yaml_all": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		s, ok := text(x)
		if !ok {
			return x, nil
		}
		d := yaml.NewDecoder(strings.NewReader(s))
		out := []any{}
		for len(out) <= maxItems {
			var n yaml.Node
			if err := d.Decode(&n); err != nil {
				if err.Error() == "EOF" {
					return out, nil
				}
				return nil, yamlError(err)
			}
			if len(n.Content) == 0 {
				out = append(out, nil)
				continue
			}
			v, err := yaml11.Value(n.Content[0])
			if err != nil {
				return nil, errorf("from_yaml_all: %v", err)
			}
			out = append(out, v)
		}
		return nil, errorf("from_yaml_all: too many documents")
	},
	"expandvars": func(env *Env, x any, _ []any, _ map[string]any) (any, error) {
		s := Str(x)
		return expandVarRE.ReplaceAllStringFunc(s, func(m string) string {
			name := m[1:]
			if strings.HasPrefix(name, "{") {
				name = name[1 : len(name)-1]
			}
			if v, ok := getenv(env, name); ok {
				return v
			}
			return m
		}), nil
	},
	"realpath": func(env *Env, x any, _ []any, _ map[string]any) (any, error) {
		if err := env.checkRead(Str(x)); err != nil {
			return nil, err
		}
		return realPath(Str(x)), nil
	},
	"relpath": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		p := Str(x)
		if p == "" {
			return nil, errorf("no path specified")
		}
		start, err := filepath.Abs(strArg(args, kw, 0, "start", "."))
		if err != nil {
			return nil, errorf("%v", err)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, errorf("%v", err)
		}
		rel, err := filepath.Rel(start, abs)
		if err != nil {
			return nil, errorf("%v", err)
		}
		return rel, nil
	},
	"win_basename": strFilter(func(p string) string {
		_, rest := winSplitDrive(p)
		return rest[strings.LastIndexAny(rest, `/\`)+1:]
	}),
	"win_dirname": strFilter(func(p string) string {
		d, rest := winSplitDrive(p)
		head := rest[:strings.LastIndexAny(rest, `/\`)+1]
		if strings.Trim(head, `/\`) != "" {
			head = strings.TrimRight(head, `/\`)
		}
		return d + head
	}),
	"win_splitdrive": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		d, rest := winSplitDrive(Str(x))
		return []any{d, rest}, nil
	},
	"fileglob": func(env *Env, x any, _ []any, _ map[string]any) (any, error) {
		found, err := pyGlob(env, Str(x))
		return toList(found), err
	},
	"to_datetime": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		s, ok := text(x)
		if !ok {
			return nil, errorf("strptime() argument 1 must be str, not %s", typeName(x))
		}
		return strptime(s, strArg(args, kw, 0, "format", "%Y-%m-%d %H:%M:%S"))
	},
	"strftime": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		if _, ok := text(x); !ok {
			return nil, typeErrorf("strftime() argument 1 must be str, not %s", typeName(x))
		}
		t := time.Now()
		if sec := argOr(args, kw, 0, "second", nil); sec != nil {
			f, ok := number(sec)
			if s, isText := text(sec); isText {
				f, ok = pyFloat(s)
			}
			if !ok || math.IsNaN(f) || math.Abs(f) > 1e15 {
				return nil, errorf("Invalid value for epoch value (%s)", Str(sec))
			}
			whole := math.Floor(f)
			t = time.Unix(int64(whole), int64((f-whole)*1e9))
		}
		if Truthy(argOr(args, kw, 1, "utc", false)) {
			t = t.UTC()
		} else {
			t = t.Local()
		}
		zone, off := t.Zone()
		if t.Location() == time.UTC {
			zone = "UTC"
		}
		sign := "+"
		if off < 0 {
			sign, off = "-", -off
		}
		offset := fmt.Sprintf("%s%02d%02d", sign, off/3600, off/60%60)
		wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
		return cStrftime(wall, Str(x), zone, offset, func() int64 { return t.Unix() })
	},
	"shuffle": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		items, err := iterate(x)
		if err != nil {
			return x, nil // Ansible returns what it cannot shuffle
		}
		out := append([]any{}, items...)
		// as Ansible's: a true seed seeds Python's generator
		if seed := argOr(args, kw, 0, "seed", nil); Truthy(seed) {
			r, err := newPyRandom(seed)
			if err != nil {
				return out, nil // Ansible returns the list unshuffled
			}
			r.shuffle(out)
			return out, nil
		}
		for i := len(out) - 1; i > 0; i-- {
			j := randInt(i+1, nil)
			out[i], out[j] = out[j], out[i]
		}
		return out, nil
	},
	"comment":         fComment,
	"subelements":     fSubelements,
	"urldecode":       fURLDecode,
	"log":             mathFilter("log"),
	"pow":             mathFilter("pow"),
	"root":            mathFilter("root"),
	"product":         fProduct,
	"permutations":    fPermutations,
	"combinations":    fCombinations,
	"human_readable":  fHumanReadable,
	"human_to_bytes":  fHumanToBytes,
	"rekey_on_member": fRekeyOnMember,
	"zip_longest":     fZipLongest,
	"mandatory": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		u, ok := x.(*undefined)
		if !ok {
			return x, nil
		}
		if msg := argOr(args, kw, 0, "msg", nil); msg != nil {
			return nil, errorf("%s", Str(msg))
		}
		name := ""
		if u.name != "" {
			name = "'" + u.name + "' "
		}
		return nil, errorf("Mandatory variable %s not defined.", name)
	},
	"regex_escape": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		// re_type python is Python's re.escape; posix_basic escapes the
		// special characters of a POSIX basic regular expression.
		var special string
		switch rt := strArg(args, kw, 0, "re_type", "python"); rt {
		case "python":
			return pyre.Escape(Str(x)), nil
		case "posix_basic":
			special = "].[^$*\\"
		case "posix_extended":
			return nil, errorf("Regex type (%s) not yet implemented", rt)
		default:
			return nil, errorf("Invalid regex type (%s)", rt)
		}
		var b strings.Builder
		for _, r := range Str(x) {
			if strings.ContainsRune(special, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		return b.String(), nil
	},
	"path_join": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		if s, ok := text(x); ok {
			return s, nil
		}
		parts, ok := x.([]any)
		if !ok {
			return nil, errorf("|path_join expects string or sequence, got <class '%s'> instead.", typeName(x))
		}
		// the parts after the last absolute one, joined by "/" where
		// one does not end with it
		strs := make([]string, len(parts))
		start := 0
		for i, p := range parts {
			if strs[i] = Str(p); strings.HasPrefix(strs[i], "/") {
				start = i
			}
		}
		size := 0
		for _, s := range strs[start:] {
			size += len(s) + 1
		}
		if size > maxSize {
			return nil, errorf("joined path too large")
		}
		var out strings.Builder
		out.Grow(size)
		for _, s := range strs[start:] {
			if out.Len() > 0 && !strings.HasSuffix(out.String(), "/") {
				out.WriteByte('/')
			}
			out.WriteString(s)
		}
		return out.String(), nil
	},
	"splitext": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		p := Str(x)
		base := filepath.Base(p)
		ext := filepath.Ext(p)
		if ext == base || strings.Trim(base, ".") == "" || strings.HasPrefix(base, ".") && strings.Count(base, ".") == 1 {
			ext = ""
		}
		if ext == "" {
			// Python's splitext gives the path itself back: a string
			// to_json made stays one that is not read as a literal.
			return []any{x, ""}, nil
		}
		return []any{p[:len(p)-len(ext)], ext}, nil
	},
	"extract": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		container := argOr(args, kw, 0, "container", nil)
		if u, ok := container.(*undefined); ok {
			return u, nil
		}
		more := argOr(args, kw, 1, "morekeys", nil)
		if u, ok := more.(*undefined); ok {
			return nil, u.err()
		}
		v, err := getItem(container, x, Str(x))
		if err != nil {
			return nil, err
		}
		keys, ok := more.([]any)
		if !ok && more != nil {
			keys = []any{more}
		}
		for _, k := range keys {
			if v, err = getItem(v, k, Str(k)); err != nil {
				return nil, err
			}
		}
		return v, nil
	},
}

var expandVarRE = regexp.MustCompile(`\$([A-Za-z0-9_]+|\{[^}]*\})`)

// parseUUID reads a UUID as Python's uuid.UUID does: hex digits with or
// without hyphens, braces or a urn:uuid: prefix.
func parseUUID(s string) ([]byte, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "urn:"), "uuid:")
	s = strings.Trim(s, "{}")
	s = strings.ReplaceAll(s, "-", "")
	if len(s) != 32 {
		return nil, false
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}

// realPath is os.path.realpath: absolute, with every symlink that exists
// resolved.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	out := "/"
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	for hops := 0; len(parts) > 0 && hops < 256; {
		part := parts[0]
		parts = parts[1:]
		if part == "" || part == "." {
			continue
		}
		if part == ".." {
			out = filepath.Dir(out)
			continue
		}
		next := filepath.Join(out, part)
		target, err := os.Readlink(next)
		if err != nil {
			out = next
			continue
		}
		hops++
		if filepath.IsAbs(target) {
			out = "/"
		}
		parts = append(strings.Split(target, "/"), parts...)
	}
	return out
}

// winSplitDrive is Python 3.11's ntpath.splitdrive: a drive letter
// ("C:"), or for a path starting with two separators a UNC or device
// prefix up to the separator after the next name.
func winSplitDrive(p string) (string, string) {
	if len(p) < 2 {
		return "", p
	}
	norm := strings.ReplaceAll(p, "/", `\`)
	if strings.HasPrefix(norm, `\\`) {
		start := 2
		if len(norm) >= 8 && strings.EqualFold(norm[:8], `\\?\UNC\`) {
			start = 8
		}
		i := strings.IndexByte(norm[start:], '\\')
		if i < 0 {
			return p, ""
		}
		i += start
		j := strings.IndexByte(norm[i+1:], '\\')
		if j < 0 {
			return p, ""
		}
		j += i + 1
		return p[:j], p[j:]
	}
	if norm[1] == ':' {
		return p[:2], p[2:]
	}
	return "", p
}

// pyGlob is Python's glob.glob for the fileglob filter: matching regular
// files (sorted, DIFFERENCES.md item 3), a wildcard never matching a
// name that starts with a dot.
func pyGlob(env *Env, pattern string) ([]string, error) {
	if err := env.checkRead(globRoot(pattern)); err != nil {
		return nil, err
	}
	matches, _ := filepath.Glob(pattern)
	var out []string
	pp := strings.Split(pattern, "/")
	for _, m := range matches {
		mp := strings.Split(m, "/")
		hidden := false
		for i := range mp {
			if i < len(pp) && strings.HasPrefix(mp[i], ".") && !strings.HasPrefix(pp[i], ".") && strings.ContainsAny(pp[i], "*?[") {
				hidden = true
			}
		}
		if hidden {
			continue
		}
		if err := env.checkRead(m); err != nil {
			return nil, err
		}
		if st, err := os.Stat(m); err == nil && st.Mode().IsRegular() {
			out = append(out, m)
		}
	}
	return sortedStrings(out), nil
}

// urlUnquotePlus is urllib.parse.unquote_plus: + is a space, %XX a byte;
// bytes that are not UTF-8 become U+FFFD.
func urlUnquotePlus(s string) string {
	out, _ := unquotePlus(s, "utf-8", "replace")
	return out
}

// fURLDecode is urldecode: Python's unquote_plus(string, encoding,
// errors), the percent-escaped bytes read as encoding (utf-8, latin-1
// or ascii; tender has no other codec) with errors' handling of bytes
// the encoding cannot read (replace, strict or ignore).
func fURLDecode(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	enc := Str(argOr(args, kw, 0, "encoding", "utf-8"))
	errs := Str(argOr(args, kw, 1, "errors", "replace"))
	return unquotePlus(Str(x), enc, errs)
}

// unquotePlus decodes s's + and %XX escapes as Python's unquote_plus.
func unquotePlus(s, enc, errs string) (string, error) {
	norm := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(enc))
	switch norm {
	case "utf8", "u8", "utf", "latin1", "iso88591", "l1", "8859", "cp819", "ascii", "usascii", "646":
	default:
		return "", errorf("urldecode: tender decodes utf-8, latin-1 and ascii only, not %q", enc)
	}
	switch errs {
	case "replace", "strict", "ignore":
	default:
		return "", errorf("urldecode: tender handles the errors replace, strict and ignore only, not %q", errs)
	}
	s = strings.ReplaceAll(s, "+", " ")
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := hex.DecodeString(s[i+1 : i+3]); err == nil {
				b = append(b, v[0])
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	var out strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case norm == "latin1" || norm == "iso88591" || norm == "l1" || norm == "8859" || norm == "cp819":
			r, n = rune(b[0]), 1
		case (norm == "ascii" || norm == "usascii" || norm == "646") && b[0] >= 0x80:
			r, n = utf8.RuneError, 1
		}
		if r == utf8.RuneError && n <= 1 {
			switch errs {
			case "strict":
				return "", &pyError{msg: fmt.Sprintf("'%s' codec can't decode byte 0x%02x", enc, b[0]), exc: "UnicodeDecodeError"}
			case "ignore":
				b = b[1:]
				continue
			}
		}
		out.WriteRune(r)
		b = b[n:]
	}
	return out.String(), nil
}
