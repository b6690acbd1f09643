package expr

import (
	"fmt"
	"unicode/utf16"
)

// encodeText is Python's str.encode for the encodings decodeText knows:
// UTF-8, ASCII and Latin-1 (a character they cannot hold is an error, as
// with errors='strict'), and UTF-16 (with a little-endian byte order mark
// unless the name gives the byte order).
func encodeText(s, encoding string) ([]byte, error) {
	norm := normEncoding(encoding)
	switch norm {
	case "utf_8", "utf8", "u8", "utf", "cp65001":
		return []byte(s), nil
	case "utf_8_sig", "utf8_sig":
		return append([]byte("\ufeff"), s...), nil
	case "ascii", "us_ascii", "646", "us", "latin_1", "latin1", "latin", "l1", "iso_8859_1", "iso8859_1", "8859", "cp819", "iso_ir_100", "ibm819":
		limit, name := rune(0xff), "latin-1"
		if norm == "ascii" || norm == "us_ascii" || norm == "646" || norm == "us" {
			limit, name = 0x7f, "ascii"
		}
		out := make([]byte, 0, len(s))
		for i, r := range []rune(s) {
			if r > limit {
				esc := fmt.Sprintf("\\x%02x", r)
				if r > 0xffff {
					esc = fmt.Sprintf("\\U%08x", r)
				} else if r > 0xff {
					esc = fmt.Sprintf("\\u%04x", r)
				}
				return nil, errorf("'%s' codec can't encode character '%s' in position %d: ordinal not in range(%d)", name, esc, i, limit+1)
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "utf_16", "utf16", "utf_16_le", "utf_16le", "utf_16_be", "utf_16be":
		big := norm == "utf_16_be" || norm == "utf_16be"
		var out []byte
		if norm == "utf_16" || norm == "utf16" {
			out = []byte{0xff, 0xfe}
		}
		for _, u := range utf16.Encode([]rune(s)) {
			if big {
				out = append(out, byte(u>>8), byte(u))
			} else {
				out = append(out, byte(u), byte(u>>8))
			}
		}
		return out, nil
	}
	return nil, errorf("unknown encoding: %s", encoding)
}
