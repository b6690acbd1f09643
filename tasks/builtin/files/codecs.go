package files

import (
	"fmt"
	"regexp"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// codecFor is the codec Python's codecs.lookup gives for name (its
// spelling normalized as Python's: case, '_' and ' ' as '-', and the
// common aliases: utf8, latin1, cp1252, iso8859_15...); false for a name
// Python does not know either, or that tender has no codec for.
func codecFor(name string) (textCodec, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("_", "-", " ", "-").Replace(n)
	if c, ok := textCodecs[n]; ok {
		return c, true
	}
	var enc encoding.Encoding
	switch {
	case n == "utf-16" || n == "utf16" || n == "u16":
		// Python writes a BOM, then little-endian.
		enc = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case n == "utf-16-le" || n == "utf-16le":
		enc = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	case n == "utf-16-be" || n == "utf-16be":
		enc = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	case cpName.MatchString(n):
		n = "windows-" + strings.TrimPrefix(strings.TrimPrefix(n, "cp"), "windows-")
		fallthrough
	default:
		n = isoName.ReplaceAllString(n, "iso-8859-$1")
		e, err := ianaindex.IANA.Encoding(n)
		if err != nil || e == nil {
			return textCodec{}, false
		}
		enc = e
	}
	return xtextCodec(name, enc), true
}

// asciiCodec is Python's ascii: bytes and characters up to 127.
var asciiCodec = textCodec{
	decode: func(b []byte) ([]byte, error) {
		for i, c := range b {
			if c > 127 {
				return nil, fmt.Errorf("'ascii' codec can't decode byte 0x%02x in position %d: ordinal not in range(128)", c, i)
			}
		}
		return b, nil
	},
	encode: func(b []byte) ([]byte, error) {
		for i, r := range []rune(string(b)) {
			if r > 127 {
				return nil, fmt.Errorf("'ascii' codec can't encode character '\\u%04x' in position %d: ordinal not in range(128)", r, i)
			}
		}
		return b, nil
	},
}

var (
	// cpName: cp1250-cp1258 and windows-125x, Python's names for the
	// Windows code pages.
	cpName = regexp.MustCompile(`^(cp|windows-)125[0-8]$`)
	// isoName: iso8859-N and iso-8859-N.
	isoName = regexp.MustCompile(`^iso-?8859-?(\d+)$`)
)

// xtextCodec is a codec of golang.org/x/text: decoding and encoding fail
// on bytes or characters the encoding has no place for, as Python's
// strict codecs do.
func xtextCodec(name string, enc encoding.Encoding) textCodec {
	if enc == charmap.ISO8859_1 {
		return latin1Codec
	}
	return textCodec{
		decode: func(b []byte) ([]byte, error) {
			out, err := enc.NewDecoder().Bytes(b)
			if err != nil {
				return nil, fmt.Errorf("'%s' codec can't decode the file: %v", name, err)
			}
			return out, nil
		},
		encode: func(b []byte) ([]byte, error) {
			out, err := enc.NewEncoder().Bytes(b)
			if err != nil {
				// Python's message names the first character the codec
				// has no place for, and its position.
				e := enc.NewEncoder()
				for i, r := range []rune(string(b)) {
					if _, rerr := e.String(string(r)); rerr != nil {
						return nil, fmt.Errorf("'charmap' codec can't encode character '\\u%04x' in position %d: character maps to <undefined>", r, i)
					}
				}
				return nil, fmt.Errorf("'%s' codec can't encode the text: %v", name, err)
			}
			return out, nil
		},
	}
}
