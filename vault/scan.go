package vault

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
)

// maxHeader bounds the header line ("$ANSIBLE_VAULT;1.2;AES256;<vault
// id>"): a longer one is not a header but a file that merely starts like
// one.
const maxHeader = 4096

// scanner decodes vault text as it arrives, a chunk at a time: the header
// line, then the body, whose hex digits (white space around each line
// ignored) encode "hex(salt)\nhex(hmac)\nhex(ciphertext)". It keeps the
// header fields and, when keep is set, the salt, the HMAC and the
// ciphertext, never the text itself: decoding vault text of n bytes
// holds about n/4 bytes, checking it (keep unset) nothing. It stops at the first byte that cannot belong
// there, so malformed data is refused without reading the rest.
type scanner struct {
	env  Envelope
	keep bool
	// limit bounds the bytes written; seen counts them.
	limit, seen int64

	head   []byte // the header line while inBody is false
	inBody bool

	// The body's hex digits: hi is the pending high nibble when half is
	// set; content marks a line that has digits, space the first white
	// space byte after them (a digit after it is an error, as hex
	// decoding the trimmed line would find).
	hi, space     byte
	half, content bool

	// The decoded body: field is 0 (salt), 1 (HMAC) or 2 (ciphertext);
	// ihi and ihalf are its own pending nibble.
	field int
	ihi   byte
	ihalf bool

	// headErr is an error about the data as a whole (not vault data, too
	// large); bodyErr one about its body. The first one set stops the scan.
	headErr, bodyErr error
}

// newScanner returns a scanner that refuses more than limit bytes and
// keeps the ciphertext when keep is set, with room for one of about
// sizeHint/4 bytes.
func newScanner(limit int64, keep bool, sizeHint int64) *scanner {
	s := &scanner{limit: limit, keep: keep}
	if keep && sizeHint > 0 {
		s.env.ciphertext = make([]byte, 0, sizeHint/4+aesBlock)
	}
	return s
}

const aesBlock = 16

// err is the error that stopped the scan, or nil.
func (s *scanner) err() error {
	if s.headErr != nil {
		return s.headErr
	}
	return s.bodyErr
}

// Write scans p; its error is the first problem found in the data so far.
func (s *scanner) Write(p []byte) (int, error) {
	if err := s.err(); err != nil {
		return 0, err
	}
	s.seen += int64(len(p))
	if s.seen > s.limit {
		s.headErr = tooLarge(s.limit)
		return 0, s.headErr
	}
	for i := 0; i < len(p); i++ {
		if !s.inBody {
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				j = len(p) - i
			}
			if len(s.head)+j > maxHeader {
				s.headErr = fmt.Errorf("%w: the header line is longer than %d bytes", ErrFormat, maxHeader)
				return 0, s.headErr
			}
			s.head = append(s.head, p[i:i+j]...)
			i += j
			if i == len(p) {
				break
			}
			if s.header(); s.headErr != nil {
				return 0, s.headErr
			}
			continue
		}
		i += s.body(p[i:]) - 1
		if s.err() != nil {
			return 0, s.err()
		}
	}
	return len(p), nil
}

// body takes bytes of the body until the end of p or an error and
// returns how many it took. Hex digits, the bulk of the text, are
// decoded here, the state in locals; every other byte goes through
// outer.
func (s *scanner) body(p []byte) int {
	hi, half, ihi, ihalf, ct := s.hi, s.half, s.ihi, s.ihalf, s.env.ciphertext
	fast := s.field == 2 && s.space == 0
	n := len(p)
	for i := 0; i < n; i++ {
		v := hexVal[p[i]]
		if v > 0xf || !fast {
			s.hi, s.half, s.ihi, s.ihalf, s.env.ciphertext = hi, half, ihi, ihalf, ct
			if v <= 0xf && s.space == 0 {
				s.digit(v)
			} else {
				s.outer(p[i])
			}
			if s.err() != nil {
				return i + 1
			}
			hi, half, ihi, ihalf, ct = s.hi, s.half, s.ihi, s.ihalf, s.env.ciphertext
			fast = s.field == 2 && s.space == 0
			continue
		}
		s.content = true
		if !half {
			hi, half = v, true
			continue
		}
		half = false
		w := hexVal[hi<<4|v]
		if w > 0xf {
			s.hi, s.half, s.ihi, s.ihalf, s.env.ciphertext = hi, half, ihi, ihalf, ct
			s.inner(hi<<4 | v)
			return i + 1
		}
		if !ihalf {
			ihi, ihalf = w, true
			continue
		}
		ihalf = false
		if s.keep {
			ct = append(ct, ihi<<4|w)
		}
	}
	s.hi, s.half, s.ihi, s.ihalf, s.env.ciphertext = hi, half, ihi, ihalf, ct
	return n
}

// header parses the header line, once it is whole.
func (s *scanner) header() {
	s.inBody = true
	line := s.head
	s.head = nil
	if !bytes.HasPrefix(line, []byte(Header+";")) || !ascii(line) {
		s.headErr = fmt.Errorf("%w: input is not vault encrypted data", ErrFormat)
		return
	}
	fields := strings.Split(strings.TrimSpace(string(line)), ";")
	if len(fields) < 3 {
		s.headErr = fmt.Errorf("%w: the header %q has no version or cipher", ErrFormat, strings.TrimSpace(string(line)))
		return
	}
	s.env.Version, s.env.Cipher = strings.TrimSpace(fields[1]), strings.TrimSpace(fields[2])
	if len(fields) >= 4 {
		s.env.ID = strings.TrimSpace(fields[3])
	}
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// outer takes one byte of the body.
func (s *scanner) outer(c byte) {
	switch {
	case c == '\n':
		s.content, s.space = false, 0
	case c >= 0x80:
		s.headErr = fmt.Errorf("%w: input is not vault encrypted data", ErrFormat)
	case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
		if s.content && s.space == 0 {
			s.space = c
		}
	default:
		v, ok := unhex(c)
		if s.space != 0 {
			ok, c = false, s.space
		}
		if !ok {
			s.bodyErr = unhexlifyError(hex.InvalidByteError(c))
			return
		}
		s.digit(v)
	}
}

// digit takes one hex digit of the body, on a line with no white space
// before it since its first digit.
func (s *scanner) digit(v byte) {
	s.content = true
	if !s.half {
		s.hi, s.half = v, true
		return
	}
	s.half = false
	s.inner(s.hi<<4 | v)
}

// inner takes one byte of the decoded body.
func (s *scanner) inner(b byte) {
	if b == '\n' && s.field < 2 {
		if s.ihalf {
			s.bodyErr = unhexlifyError(hex.ErrLength)
			return
		}
		s.field++
		return
	}
	v, ok := unhex(b)
	if !ok {
		s.bodyErr = unhexlifyError(hex.InvalidByteError(b))
		return
	}
	if !s.ihalf {
		s.ihi, s.ihalf = v, true
		return
	}
	s.ihalf = false
	if !s.keep {
		return
	}
	switch d := s.ihi<<4 | v; s.field {
	case 0:
		s.env.salt = append(s.env.salt, d)
	case 1:
		s.env.sum = append(s.env.sum, d)
	default:
		s.env.ciphertext = append(s.env.ciphertext, d)
	}
}

// finish ends the scan: the data must have ended where vault text may.
func (s *scanner) finish() error {
	if err := s.err(); err != nil {
		return err
	}
	if !s.inBody {
		if s.header(); s.headErr != nil {
			return s.headErr
		}
	}
	switch {
	case s.half || s.ihalf:
		s.bodyErr = unhexlifyError(hex.ErrLength)
	case s.field < 2:
		s.bodyErr = fmt.Errorf("%w: the vaulttext does not hold a salt, an HMAC and a ciphertext", ErrFormat)
	}
	return s.bodyErr
}

func unhexlifyError(err error) error {
	return fmt.Errorf("%w: Vault format unhexlify error: %v", ErrFormat, err)
}

func unhex(c byte) (byte, bool) {
	v := hexVal[c]
	return v, v <= 0xf
}

// hexVal is each byte's value as a hex digit, 0xff for a byte that is
// not one.
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := byte(0); i < 10; i++ {
		t['0'+i] = i
	}
	for i := byte(0); i < 6; i++ {
		t['a'+i], t['A'+i] = 10+i, 10+i
	}
	return t
}()
