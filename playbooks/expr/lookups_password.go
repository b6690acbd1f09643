package expr

import (
	"os"
	"path/filepath"
	"strings"
)

// parseKV splits "a=1 b='x y'" into a map; words without "=" are returned
// in order as raw.
func parseKV(s string) (map[string]string, []string) {
	kv := map[string]string{}
	var raw []string
	for _, w := range splitWords(s) {
		if k, v, ok := strings.Cut(w, "="); ok {
			kv[k] = unquote(v)
		} else {
			raw = append(raw, w)
		}
	}
	return kv, raw
}

func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	var q rune
	for _, r := range s {
		switch {
		case q != 0:
			cur.WriteRune(r)
			if r == q {
				q = 0
			}
		case r == '\'' || r == '"':
			q = r
			cur.WriteRune(r)
		case r == ' ' || r == '\t' || r == '\n':
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

var charSets = map[string]string{
	"ascii_letters":   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"ascii_lowercase": "abcdefghijklmnopqrstuvwxyz",
	"ascii_uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"digits":          "0123456789",
	"hexdigits":       "0123456789abcdefABCDEF",
	"octdigits":       "01234567",
	"punctuation":     "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
	"whitespace":      " \t\n\r\v\f",
	"printable":       "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r\v\f",
}

// passwordCharSpecs splits the chars= of a password term as Ansible does:
// ",," stands for a comma (which then comes first), other commas separate
// the names of Python's string constants and literal characters.
func passwordCharSpecs(c string) []any {
	var specs []any
	if strings.Contains(c, ",,") {
		specs = append(specs, ",")
	}
	for _, part := range strings.Split(strings.ReplaceAll(c, ",,", ","), ",") {
		if part != "" {
			specs = append(specs, part)
		}
	}
	return specs
}

// seededString is Python's random.Random(seed).choice(chars) length
// times, as Ansible draws a password with a seed.
func seededString(length int, chars, seed string) string {
	r, _ := newPyRandom(seed)
	runes := []rune(chars)
	out := make([]rune, length)
	for i := range out {
		out[i] = runes[r.intn(len(runes))]
	}
	return string(out)
}

// password is Ansible's password lookup: read the password stored in the
// file, or generate one and store it (the file is created with mode 0600,
// its directory 0700). /dev/null never stores.
func password(env *Env, term string, opts map[string]any) (string, error) {
	rel, params := term, map[string]string{}
	if first, rest, ok := strings.Cut(term, " "); ok {
		kv, raw := parseKV(rest)
		rel, params = first, kv
		if len(raw) > 0 {
			rel = first + " " + strings.Join(raw, " ")
			if !strings.HasPrefix(term, rel) {
				return "", errorf("Unrecognized value after key=value parameters given to password lookup")
			}
		}
	}
	for k := range params {
		switch k {
		case "length", "encrypt", "chars", "ident", "seed":
		default:
			return "", ansibleErrorf("Unrecognized parameter(s) given to password lookup: %s", k)
		}
	}
	length := 20
	if l, ok := params["length"]; ok {
		n, ok := pyInt(l, 10)
		if !ok {
			return "", &ansibleError{"ValueError", "invalid literal for int() with base 10: " + Repr(l)}
		}
		length = n
	} else if l, ok := opts["length"]; ok {
		n, ok := integer(l)
		if !ok {
			return "", errorf("invalid length %s", Str(l))
		}
		length = n
	}
	if length < 0 || length > 1<<16 {
		return "", errorf("invalid length %d", length)
	}
	var specs []any = []any{"ascii_letters", "digits", ".,:-_"}
	if c, ok := params["chars"]; ok {
		specs = passwordCharSpecs(c)
	} else if c, ok := opts["chars"]; ok {
		specs, _ = c.([]any)
	}
	var b strings.Builder
	for _, spec := range specs {
		if set, ok := charSets[Str(spec)]; ok {
			b.WriteString(set)
		} else {
			b.WriteString(Str(spec))
		}
	}
	// Ansible drops quotes from the candidates
	chars := strings.NewReplacer(`"`, "", "'", "").Replace(b.String())
	seed, seeded := params["seed"]
	if !seeded {
		if v, ok := opts["seed"]; ok {
			seed, seeded = Str(v), true
		}
	}
	if _, ok := params["encrypt"]; !ok {
		if v, ok := opts["encrypt"]; ok {
			params["encrypt"] = Str(v)
		}
	}
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.BaseDir, path)
	}
	if path != "/dev/null" {
		if err := env.checkRead(path); err != nil {
			return "", err
		}
	}
	var plain, salt string
	var content []byte
	var err error
	if path != "/dev/null" {
		content, err = readFile(env, path)
	}
	switch {
	case path == "/dev/null" || os.IsNotExist(err):
		if chars == "" {
			return "", errorf("no characters to build a password from")
		}
		if seeded {
			plain = seededString(length, chars, seed)
		} else {
			plain = randomString(length, chars)
		}
	case err != nil:
		return "", err
	default:
		text := strings.TrimRight(string(content), " \t\r\n\v\f")
		plain = text
		if i := strings.LastIndex(text, " salt="); i >= 0 {
			plain, salt = text[:i], text[i+len(" salt="):]
			salt, _, _ = strings.Cut(salt, " ")
		}
	}
	encrypt := params["encrypt"]
	if encrypt != "" && salt == "" {
		salt = randomString(16, cryptAlphabet)
	}
	if path != "/dev/null" && (os.IsNotExist(err) || encrypt != "" && !strings.Contains(string(content), " salt=")) {
		// in check mode too: the run that writes would be refused
		if err := env.checkWrite(path); err != nil {
			return "", err
		}
	}
	if path != "/dev/null" && !env.NoWrite && (os.IsNotExist(err) || encrypt != "" && !strings.Contains(string(content), " salt=")) {
		store := plain
		if encrypt != "" {
			store += " salt=" + salt
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", err
		}
		if err := os.WriteFile(path, []byte(store+"\n"), 0o600); err != nil {
			return "", err
		}
	}
	if encrypt != "" {
		return passwordHash(nil, plain, encrypt, salt, nil, nil)
	}
	return plain, nil
}
