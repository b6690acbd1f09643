package expr

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"math/big"
	"strconv"
	"strings"
)

// SHA-crypt ($5$ and $6$), written from Ulrich Drepper's public
// specification "Unix crypt using SHA-256 and SHA-512".

const cryptAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// byte orders of the final encoding, three bytes per group
var (
	sha512Order = [][3]int{{0, 21, 42}, {22, 43, 1}, {44, 2, 23}, {3, 24, 45}, {25, 46, 4}, {47, 5, 26}, {6, 27, 48}, {28, 49, 7}, {50, 8, 29}, {9, 30, 51}, {31, 52, 10}, {53, 11, 32}, {12, 33, 54}, {34, 55, 13}, {56, 14, 35}, {15, 36, 57}, {37, 58, 16}, {59, 17, 38}, {18, 39, 60}, {40, 61, 19}, {62, 20, 41}}
	sha256Order = [][3]int{{0, 10, 20}, {21, 1, 11}, {12, 22, 2}, {3, 13, 23}, {24, 4, 14}, {15, 25, 5}, {6, 16, 26}, {27, 7, 17}, {18, 28, 8}, {9, 19, 29}}
)

// shaCrypt computes the crypt(3) string for key with the given salt (at most
// 16 characters are used) and rounds (0 means the default 5000, which is
// then not written into the output), within the budget b: up to
// 999,999,999 rounds take minutes.
func shaCrypt(b *budget, is512 bool, key, salt string, rounds int) (string, error) {
	newHash := sha256.New
	id, order := "5", sha256Order
	if is512 {
		newHash, id, order = sha512.New, "6", sha512Order
	}
	custom := rounds != 0
	if !custom {
		rounds = 5000
	}
	rounds = max(1000, min(rounds, 999999999))
	if len(salt) > 16 {
		salt = salt[:16]
	}
	p, s := []byte(key), []byte(salt)
	sum := func(parts ...[]byte) []byte {
		h := newHash()
		for _, x := range parts {
			h.Write(x)
		}
		return h.Sum(nil)
	}
	bs := sum(p, s, p)
	size := len(bs)
	a := newHash()
	a.Write(p)
	a.Write(s)
	writeRepeated(a, bs, len(p))
	for n := len(p); n > 0; n >>= 1 {
		if n&1 == 1 {
			a.Write(bs)
		} else {
			a.Write(p)
		}
	}
	c := a.Sum(nil)
	dp := newHash()
	for range p {
		dp.Write(p)
	}
	pseq := repeatTo(dp.Sum(nil), len(p))
	ds := newHash()
	for range 16 + int(c[0]) {
		ds.Write(s)
	}
	sseq := repeatTo(ds.Sum(nil), len(s))
	for i := range rounds {
		if err := b.tick(roundUnits); err != nil {
			return "", err
		}
		h := newHash()
		if i%2 == 1 {
			h.Write(pseq)
		} else {
			h.Write(c)
		}
		if i%3 != 0 {
			h.Write(sseq)
		}
		if i%7 != 0 {
			h.Write(pseq)
		}
		if i%2 == 1 {
			h.Write(c)
		} else {
			h.Write(pseq)
		}
		c = h.Sum(nil)
	}
	var out strings.Builder
	out.WriteString("$" + id + "$")
	if custom {
		out.WriteString("rounds=" + strconv.Itoa(rounds) + "$")
	}
	out.WriteString(salt + "$")
	enc := func(b2, b1, b0 byte, n int) {
		w := uint(b2)<<16 | uint(b1)<<8 | uint(b0)
		for range n {
			out.WriteByte(cryptAlphabet[w&0x3f])
			w >>= 6
		}
	}
	for _, g := range order {
		enc(c[g[0]], c[g[1]], c[g[2]], 4)
	}
	if size == 64 {
		enc(0, 0, c[63], 2)
	} else {
		enc(0, c[31], c[30], 3)
	}
	return out.String(), nil
}

// writeRepeated writes len bytes of b (repeated whole, then a prefix).
func writeRepeated(h hash.Hash, b []byte, n int) {
	for ; n > len(b); n -= len(b) {
		h.Write(b)
	}
	h.Write(b[:n])
}

func repeatTo(b []byte, n int) []byte {
	out := make([]byte, 0, n)
	for len(out)+len(b) <= n {
		out = append(out, b...)
	}
	return append(out, b[:n-len(out)]...)
}

// roundUnits is the work of one round of shaCrypt, in budget units.
const roundUnits = 256

// maxSecret is the longest secret passlib hashes (its PasswordSizeError):
// shaCrypt's work grows with the square of the secret's length.
const maxSecret = 4096

// passwordHash is Ansible's password_hash filter for sha512 and sha256, as
// ansible-core computes it with passlib, within the budget b.
func passwordHash(b *budget, secret, hashtype string, salt, saltSize, rounds any) (string, error) {
	if len(secret) > maxSecret {
		return "", errorf("password_hash: the password exceeds the maximum allowed size (%d bytes)", maxSecret)
	}
	var is512 bool
	var implicit int
	switch hashtype {
	case "sha512", "sha512_crypt":
		is512, implicit = true, 656000
	case "sha256", "sha256_crypt":
		implicit = 535000
	default:
		return "", errorf("password_hash does not support the '%s' algorithm (tender supports sha512 and sha256)", hashtype)
	}
	size := 16
	if saltSize != nil {
		var ok bool
		if size, ok = integer(saltSize); !ok {
			return "", errorf("password_hash: salt_size must be an integer, got %s", Repr(saltSize))
		}
		if size > 16 {
			return "", errorf("invalid salt size")
		}
	}
	s := ""
	if salt != nil {
		s = Str(salt)
	}
	if s == "" {
		s = randomString(size, cryptAlphabet)
	}
	for _, r := range s {
		if !strings.ContainsRune(cryptAlphabet, r) {
			return "", errorf("invalid characters in salt")
		}
	}
	if len(s) > 16 {
		return "", errorf("invalid salt size")
	}
	// Ansible (through passlib) uses 656000 rounds for sha512 and 535000
	// for sha256 unless told otherwise, and writes them into the hash;
	// only the specification's default of 5000 goes unwritten.
	r := implicit
	if rounds != nil {
		// passlib writes the rounds with %d: a number is needed, text
		// fails as it does there.
		if !isNumber(rounds) {
			return "", typeErrorf("%%d format: a real number is required, not %s", typeName(rounds))
		}
		f, _ := floatOf(rounds)
		r = int(f)
	}
	if r == 5000 {
		r = 0
	}
	return shaCrypt(b, is512, secret, s, r)
}

// randomString draws n characters of alphabet from crypto/rand.
func randomString(n int, alphabet string) string {
	if n <= 0 || n > maxSize {
		return ""
	}
	out := make([]rune, n)
	chars := []rune(alphabet)
	for i := range out {
		v, err := rand.Int(rand.Reader, big.NewInt(int64(len(chars))))
		if err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		out[i] = chars[v.Int64()]
	}
	return string(out)
}
