package expr

import (
	"crypto/sha512"
	"math"
	"math/big"
	"math/bits"
)

// pyRandom is Python's random.Random seeded with a value: the Mersenne
// Twister (MT19937) with Python's seeding, so that the random and shuffle
// filters and the password lookup given a seed draw what Ansible draws.
type pyRandom struct {
	mt  [624]uint32
	idx int
}

// newPyRandom is random.Random(seed) for the seeds Python takes: an
// integer (its absolute value), a bool (0 or 1), a float (its hash) and
// text (its UTF-8 bytes followed by their SHA-512, read as a big-endian
// integer, as Python's default seeding version does).
func newPyRandom(seed any) (*pyRandom, error) {
	var n *big.Int
	switch t := seed.(type) {
	case bool:
		n = big.NewInt(int64(boolInt(t)))
	case int:
		n = big.NewInt(int64(t))
	case *big.Int:
		n = new(big.Int).Set(t)
	case float64:
		n = big.NewInt(pyFloatHash(t))
	default:
		s, ok := text(seed)
		if !ok {
			return nil, errorf("The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
		}
		sum := sha512.Sum512([]byte(s))
		n = new(big.Int).SetBytes(append([]byte(s), sum[:]...))
	}
	n.Abs(n)
	var key []uint32
	for _, w := range n.Bits() {
		key = append(key, uint32(w))
		if bits.UintSize == 64 {
			key = append(key, uint32(uint64(w)>>32))
		}
	}
	for len(key) > 1 && key[len(key)-1] == 0 {
		key = key[:len(key)-1]
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	r := &pyRandom{}
	r.initByArray(key)
	return r, nil
}

func (r *pyRandom) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < len(r.mt); i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.idx = len(r.mt)
}

func (r *pyRandom) initByArray(key []uint32) {
	const n = 624
	r.initGenrand(19650218)
	i, j := 1, 0
	for k := max(n, len(key)); k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// uint32 is the next word of the sequence (genrand_uint32).
func (r *pyRandom) uint32() uint32 {
	const n, m = 624, 397
	if r.idx >= n {
		for k := 0; k < n; k++ {
			y := r.mt[k]&0x80000000 | r.mt[(k+1)%n]&0x7fffffff
			v := r.mt[(k+m)%n] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			r.mt[k] = v
		}
		r.idx = 0
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// getrandbits is random.getrandbits(k), k >= 0.
func (r *pyRandom) getrandbits(k int) *big.Int {
	if k <= 32 {
		if k == 0 {
			return new(big.Int)
		}
		return big.NewInt(int64(r.uint32() >> (32 - k)))
	}
	words := (k-1)/32 + 1
	buf := make([]byte, words*4)
	for i := 0; i < words; i, k = i+1, k-32 {
		w := r.uint32()
		if k < 32 {
			w >>= 32 - k
		}
		// little-endian words, written into a big-endian buffer
		at := (words - 1 - i) * 4
		buf[at], buf[at+1], buf[at+2], buf[at+3] = byte(w>>24), byte(w>>16), byte(w>>8), byte(w)
	}
	return new(big.Int).SetBytes(buf)
}

// below is random._randbelow(n): an integer in [0, n), n > 0.
func (r *pyRandom) below(n *big.Int) *big.Int {
	k := n.BitLen()
	for {
		v := r.getrandbits(k)
		if v.Cmp(n) < 0 {
			return v
		}
	}
}

// intn is below for an int.
func (r *pyRandom) intn(n int) int { return int(r.below(big.NewInt(int64(n))).Int64()) }

// shuffle is random.shuffle(items).
func (r *pyRandom) shuffle(items []any) {
	for i := len(items) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		items[i], items[j] = items[j], items[i]
	}
}

// pyFloatHash is Python's hash() of a float (the seed random.Random
// takes from one).
func pyFloatHash(f float64) int64 {
	const bitsP = 61
	const p = uint64(1)<<bitsP - 1
	switch {
	case math.IsInf(f, 1):
		return 314159
	case math.IsInf(f, -1):
		return -314159
	case math.IsNaN(f):
		return 0
	}
	m, e := math.Frexp(f)
	sign := int64(1)
	if m < 0 {
		sign, m = -1, -m
	}
	var x uint64
	for m != 0 {
		x = (x<<28)&p | x>>(bitsP-28)
		m *= 268435456.0
		e -= 28
		y := uint64(m)
		m -= float64(y)
		x += y
		if x >= p {
			x -= p
		}
	}
	if e >= 0 {
		e %= bitsP
	} else {
		e = bitsP - 1 - (-1-e)%bitsP
	}
	x = (x<<uint(e))&p | x>>(bitsP-uint(e))
	h := int64(x) * sign
	if h == -1 {
		h = -2
	}
	return h
}
