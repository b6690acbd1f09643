package expr

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"hash"
	"os"
	"os/user"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"

	"github.com/tender-sh/tender/internal/pyre"
)

func strArg(args []any, kw map[string]any, i int, key string, def string) string {
	v := argOr(args, kw, i, key, nil)
	if v == nil {
		return def
	}
	return Str(v)
}

func strFilter(f func(s string) string) filterFunc {
	return func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return f(Str(x)), nil }
}

// markupFilter is a filter made of a Python str method: Markup stays
// Markup.
func markupFilter(f func(s string) string) filterFunc {
	return func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return keepMarkup(x, f(Str(x))), nil }
}

var stringFilters = map[string]filterFunc{
	"lower":      markupFilter(pyLower),
	"upper":      markupFilter(pyUpper),
	"capitalize": markupFilter(capitalize),
	"title":      markupFilter(jinjaTitle),
	"trim": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		if c := argOr(args, kw, 0, "chars", nil); c != nil {
			return keepMarkup(x, strings.Trim(Str(x), Str(c))), nil
		}
		return keepMarkup(x, strings.TrimFunc(Str(x), pySpace)), nil
	},
	"replace": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		if len(args) < 2 {
			return nil, errorf("replace needs old and new")
		}
		n := -1
		if c := argOr(args, kw, 2, "count", nil); c != nil {
			n, _ = integer(c)
		}
		return replaceText(budgetOf(env), Str(x), Str(args[0]), Str(args[1]), n)
	},
	"regex_replace": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		// Python's re takes a str pattern and a str replacement only.
		if _, ok := text(argOr(args, kw, 0, "pattern", "")); !ok {
			return nil, typeErrorf("first argument must be string or compiled pattern")
		}
		if r := argOr(args, kw, 1, "replacement", ""); !isText(r) {
			return nil, typeErrorf("decoding to str: need a bytes-like object, %s found", typeName(r))
		}
		pat := strArg(args, kw, 0, "pattern", "")
		repl := strArg(args, kw, 1, "replacement", "")
		re, err := compileRegex(budgetOf(env), pat, Truthy(argOr(args, kw, 2, "ignorecase", false)), Truthy(argOr(args, kw, 3, "multiline", false)))
		if err != nil {
			return nil, err
		}
		tpl, err := pyre.ParseTemplate(repl, re)
		if err != nil {
			return nil, reError(err.Error())
		}
		s := Str(x)
		if err := textCost(budgetOf(env), s); err != nil {
			return nil, err
		}
		out, n, err := tpl.SubnCheck(re, textBytes(s), maxSize, budgetOf(env).tick)
		switch {
		case errors.Is(err, pyre.ErrTooLarge):
			return nil, errorf("replaced string too large")
		case err != nil:
			return nil, regexErr(budgetOf(env), err)
		case n == 0:
			return s, nil
		}
		return bytesText(out), nil
	},
	"regex_search": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		// regex_search(value, regex, *groups, ignorecase=, multiline=):
		// the group references are read before the search, other
		// keywords are ignored
		pattern, ok := argOr(args, kw, 0, "regex", nil), len(args) > 0
		if _, byName := kw["regex"]; byName && ok {
			return nil, typeErrorf("regex_search() got multiple values for argument 'regex'")
		}
		if !ok && pattern == nil {
			if _, byName := kw["regex"]; !byName {
				return nil, typeErrorf("regex_search() missing 1 required positional argument: 'regex'")
			}
		}
		var refs []string
		if len(args) > 1 {
			for _, a := range args[1:] {
				ref, isText := text(a)
				switch {
				case !isText:
					return nil, errorf("'%s' object has no attribute 'startswith'", typeName(a))
				case strings.HasPrefix(ref, `\g`):
					if m := groupNameRef.FindStringSubmatch(ref); m == nil {
						return nil, errorf("'NoneType' object has no attribute 'group'")
					}
				case strings.HasPrefix(ref, `\`):
					if !groupNumRef.MatchString(ref) {
						return nil, errorf("'NoneType' object has no attribute 'group'")
					}
				default:
					return nil, errorf("Unknown argument")
				}
				refs = append(refs, ref)
			}
		}
		b := budgetOf(env)
		re, err := compileRegex(b, Str(pattern), Truthy(kw["ignorecase"]), Truthy(kw["multiline"]))
		if err != nil {
			return nil, err
		}
		s := Str(x)
		m, err := search(b, re, s, "search")
		if m == nil || err != nil {
			return nil, err
		}
		if len(refs) == 0 {
			return s[m[0]:m[1]], nil
		}
		out := []any{}
		for _, ref := range refs {
			var g int
			if sm := groupNameRef.FindStringSubmatch(ref); sm != nil {
				if g = re.SubexpIndex(sm[1]); g < 0 {
					return nil, errorf("no such group")
				}
			} else {
				g, _ = strconv.Atoi(groupNumRef.FindStringSubmatch(ref)[1])
			}
			if 2*g+1 >= len(m) {
				return nil, errorf("no such group")
			}
			if m[2*g] < 0 {
				out = append(out, nil)
			} else {
				out = append(out, s[m[2*g]:m[2*g+1]])
			}
		}
		return out, nil
	},
	"regex_findall": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		re, err := compileRegex(budgetOf(env), strArg(args, kw, 0, "regex", ""), Truthy(argOr(args, kw, 2, "ignorecase", false)), Truthy(argOr(args, kw, 1, "multiline", false)))
		if err != nil {
			return nil, err
		}
		return findAll(budgetOf(env), re, Str(x))
	},
	"split": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		// Ansible's split is str.split itself: it takes a str only.
		if _, ok := text(x); !ok {
			return nil, typeErrorf("descriptor 'split' for 'str' objects doesn't apply to a '%s' object", typeName(x))
		}
		limit := -1
		if v := argOr(args, kw, 1, "maxsplit", nil); v != nil {
			limit, _ = integer(v)
		}
		sep := strArg(args, kw, 0, "sep", "")
		if sep == "" && argOr(args, kw, 0, "sep", nil) != nil {
			return nil, errorf("empty separator")
		}
		return pySplit(Str(x), sep, limit, false)
	},
	"basename": strFilter(func(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }),
	"dirname": strFilter(func(p string) string {
		head := p[:strings.LastIndexByte(p, '/')+1]
		if head != "" && strings.Trim(head, "/") != "" {
			head = strings.TrimRight(head, "/")
		}
		return head
	}),
	"expanduser": func(env *Env, x any, _ []any, _ map[string]any) (any, error) {
		p := Str(x)
		if !strings.HasPrefix(p, "~") {
			return p, nil
		}
		if name, rest, _ := strings.Cut(p[1:], "/"); name != "" {
			// ~name is that user's home, from the controller's user
			// database (as Python's pwd); a user it does not know, or a
			// sandboxed run (the database is not the playbook's), leaves
			// the path as it is.
			if env != nil && env.Sandbox != nil {
				return p, nil
			}
			u, err := user.Lookup(name)
			if err != nil {
				return p, nil
			}
			home := u.HomeDir
			if home != "/" {
				home = strings.TrimRight(home, "/")
			}
			if !strings.Contains(p, "/") {
				return home, nil
			}
			return home + "/" + rest, nil
		}
		home, ok := getenv(env, "HOME")
		if !ok && env != nil && env.Sandbox != nil {
			return p, nil // the user database is not the playbook's
		}
		if !ok {
			h, err := os.UserHomeDir()
			if err != nil {
				return p, nil
			}
			home = h
		}
		if home != "/" {
			home = strings.TrimRight(home, "/")
		}
		if p == "~" {
			return home, nil
		}
		return strings.TrimRight(home, "/") + p[1:], nil
	},
	"quote": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		if x == nil {
			return "''", nil // None quotes as the empty string
		}
		return shellQuote(Str(x)), nil
	},
	"b64encode": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		b, err := encodeText(Str(x), strArg(args, kw, 0, "encoding", "utf-8"))
		if err != nil {
			return nil, err
		}
		return base64.StdEncoding.EncodeToString(b), nil
	},
	"b64decode": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		b, err := pyB64decode(Str(x))
		if err != nil {
			return nil, err
		}
		if enc := strArg(args, kw, 0, "encoding", "utf-8"); normEncoding(enc) != "utf_8" {
			return decodeText(b, enc)
		}
		if !utf8.Valid(b) {
			return strings.ToValidUTF8(string(b), "\uFFFD"), nil
		}
		return string(b), nil
	},
	"hash": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		return hexDigest(strArg(args, kw, 0, "hashtype", "sha1"), Str(x))
	},
	"md5": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return hexDigest("md5", Str(x)) },
	"sha1": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		return hexDigest("sha1", Str(x))
	},
	"checksum": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		return hexDigest("sha1", Str(x))
	},
	"format": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		if len(kw) > 0 && len(args) > 0 {
			return nil, &pyError{msg: "can't handle positional and keyword arguments at the same time", exc: "jinja2.exceptions.FilterArgumentError"}
		}
		if len(kw) > 0 {
			return percentFormat(Str(x), kw)
		}
		return percentFormat(Str(x), append([]any{}, args...))
	},
	"password_hash": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		return passwordHash(budgetOf(env), Str(x), strArg(args, kw, 0, "hashtype", "sha512"), argOr(args, kw, 1, "salt", nil), argOr(args, kw, 2, "salt_size", nil), argOr(args, kw, 3, "rounds", nil))
	},
}

var shellSafe = regexp.MustCompile(`^[a-zA-Z0-9_@%+=:,./-]+$`)

// shellQuote is Python's shlex.quote.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// hexDigest is Python's hashlib.new(algo, s).hexdigest() for the
// algorithms hashlib always has (its names, in either case, as
// OpenSSL's lookup takes them); shake_128 and shake_256 need a length
// hexdigest() is not given, so they fail as in Python.
func hexDigest(algo, s string) (any, error) {
	name := strings.ToLower(algo)
	if name == "shake_128" || name == "shake_256" {
		return nil, typeErrorf("hexdigest() missing required argument 'length' (pos 1)")
	}
	newHash, ok := hashlibAlgorithms[name]
	if !ok {
		return nil, errorf("unsupported hash type %s", algo)
	}
	h := newHash()
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashlibAlgorithms are the algorithms Python's hashlib always has, by
// its names.
var hashlibAlgorithms = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha224": sha256.New224, "sha256": sha256.New,
	"sha384": sha512.New384, "sha512": sha512.New, "sha512_224": sha512.New512_224, "sha512_256": sha512.New512_256,
	"sha3_224": func() hash.Hash { return sha3.New224() }, "sha3_256": func() hash.Hash { return sha3.New256() },
	"sha3_384": func() hash.Hash { return sha3.New384() }, "sha3_512": func() hash.Hash { return sha3.New512() },
	"blake2b": func() hash.Hash { h, _ := blake2b.New512(nil); return h },
	"blake2s": func() hash.Hash { h, _ := blake2s.New256(nil); return h },
}

// getenv reads the controller's environment variable name, as the Env's
// sandbox lets the playbook see it: a variable it refuses looks unset.
func getenv(env *Env, name string) (string, bool) {
	if env.checkEnv(name) != nil {
		return "", false
	}
	if env != nil && env.Getenv != nil {
		return env.Getenv(name)
	}
	return os.LookupEnv(name)
}

// replaceText is Python's s.replace(old, repl, n) (n < 0: every one)
// within the budget b, which it ticks as it goes through s; a result past
// maxSize is refused before it is built.
func replaceText(b *budget, s, old, repl string, n int) (string, error) {
	count := strings.Count(s, old)
	if n >= 0 && n < count {
		count = n
	}
	if count == 0 {
		return s, nil
	}
	if len(s)+count*len(repl) > maxSize {
		return "", errorf("replaced string too large")
	}
	if old == "" {
		return strings.Replace(s, old, repl, n), b.tick(len(s) + count*len(repl))
	}
	var out strings.Builder
	out.Grow(len(s) + count*(len(repl)-len(old)))
	start := 0
	for range count {
		i := start + strings.Index(s[start:], old)
		out.WriteString(s[start:i])
		out.WriteString(repl)
		if err := b.tick(i - start + len(repl) + 1); err != nil {
			return "", err
		}
		start = i + len(old)
	}
	out.WriteString(s[start:])
	return out.String(), nil
}

// groupNameRef and groupNumRef are regex_search's group references,
// read as Ansible reads them (\g<name>, \N: the start of the text).
var (
	groupNameRef = regexp.MustCompile(`^\\g<(\S+)>`)
	groupNumRef  = regexp.MustCompile(`^\\(\d+)`)
)

// isText reports whether v is a str to Python (plain, unsafe or Markup).
func isText(v any) bool {
	_, ok := text(v)
	return ok
}
