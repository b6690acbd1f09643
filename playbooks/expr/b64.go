package expr

// pyB64decode is Python's base64.b64decode without validation (binascii's
// a2b_base64 in its lenient mode): characters outside the alphabet are
// skipped, a complete pad ends the data, and a last group of one
// character or without its padding is refused with binascii.Error, a
// ValueError.
func pyB64decode(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)*3/4)
	var quad, pads int
	var left byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '=' {
			if quad >= 2 {
				pads++
				if quad+pads >= 4 {
					return out, nil
				}
			}
			continue
		}
		v := b64Value(c)
		if v < 0 {
			continue
		}
		pads = 0
		b := byte(v)
		switch quad {
		case 0:
			left = b
		case 1:
			out = append(out, left<<2|b>>4)
			left = b & 0x0f
		case 2:
			out = append(out, left<<4|b>>2)
			left = b & 0x03
		case 3:
			out = append(out, left<<6|b)
		}
		quad = (quad + 1) % 4
	}
	switch quad {
	case 0:
		return out, nil
	case 1:
		return nil, valueErrorf("Invalid base64-encoded string: number of data characters (%d) cannot be 1 more than a multiple of 4", len(out)/3*4+1)
	}
	return nil, valueErrorf("Incorrect padding")
}

// b64Value is c's value in the standard base64 alphabet, or -1.
func b64Value(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}
