package expr

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// percentFormat is Python's "fmt % args" for the conversions playbooks use:
// %s %r %d %i %f %F %e %g %x %X %o %c %% with flags, width and precision.
func percentFormat(format string, args any) (string, error) {
	var list []any
	named, isMap := args.(map[string]any)
	if l, ok := args.([]any); ok {
		list = l
	} else if !isMap {
		list = []any{args}
	}
	next := 0
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(format) {
			return "", errorf("incomplete format")
		}
		var key string
		if format[i] == '(' && isMap {
			end := strings.IndexByte(format[i:], ')')
			if end < 0 {
				return "", errorf("incomplete format key")
			}
			key = format[i+1 : i+end]
			i += end + 1
		}
		// flags, width and precision are slices of format: building them
		// a character at a time would take quadratic time on a long run
		from := i
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			i++
		}
		flags := format[from:i]
		from = i
		for i < len(format) && isDigit(format[i]) {
			i++
		}
		width := format[from:i]
		if len(width) > 9 {
			return "", errorf("width too big")
		}
		prec := -1
		if i < len(format) && format[i] == '.' {
			i++
			from := i
			for i < len(format) && isDigit(format[i]) {
				i++
			}
			p := format[from:i]
			prec, _ = strconv.Atoi(p)
			if prec > 1000 || len(p) > 4 {
				return "", errorf("precision too big")
			}
		}
		if i >= len(format) {
			return "", errorf("incomplete format")
		}
		verb := format[i]
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		var arg any
		if key != "" {
			v, ok := named[key]
			if !ok {
				return "", errorf("KeyError: '%s'", key)
			}
			arg = v
		} else {
			if next >= len(list) {
				return "", typeErrorf("not enough arguments for format string")
			}
			arg = list[next]
			next++
		}
		s, err := formatOne(verb, flags, prec, arg)
		if err != nil {
			return "", err
		}
		w, _ := strconv.Atoi(width)
		if w > maxSize {
			return "", errorf("width too large")
		}
		if pad := w - len(s); pad > 0 {
			switch {
			case strings.Contains(flags, "-"):
				s += strings.Repeat(" ", pad)
			case strings.Contains(flags, "0") && verb != 's' && verb != 'r':
				// zeros go after the sign and the alternate form's 0x/0o
				head := 0
				if s != "" && (s[0] == '-' || s[0] == '+' || s[0] == ' ') {
					head = 1
				}
				if strings.Contains(flags, "#") && strings.IndexByte("xXo", verb) >= 0 {
					head += 2
				}
				s = s[:head] + strings.Repeat("0", pad) + s[head:]
			default:
				s = strings.Repeat(" ", pad) + s
			}
		}
		if b.Len()+len(s) > maxSize {
			return "", errorf("formatted string too large")
		}
		b.WriteString(s)
	}
	if !isMap && next < len(list) {
		return "", typeErrorf("not all arguments converted during string formatting")
	}
	return b.String(), nil
}

func formatOne(verb byte, flags string, prec int, arg any) (string, error) {
	sign := func(s string, neg bool) string {
		switch {
		case neg:
			return "-" + s
		case strings.Contains(flags, "+"):
			return "+" + s
		case strings.Contains(flags, " "):
			return " " + s
		}
		return s
	}
	if u, ok := arg.(*undefined); ok && verb != 'r' {
		// %r shows an undefined argument (Ansible's repr); any other
		// conversion uses its value, which fails
		return "", u.err()
	}
	switch verb {
	case 's':
		s := Str(arg)
		if prec >= 0 && prec < len([]rune(s)) {
			s = string([]rune(s)[:prec])
		}
		return s, nil
	case 'r':
		return Repr(arg), nil
	case 'd', 'i', 'x', 'X', 'o':
		if !isNumber(arg) {
			return "", typeErrorf("%%%c format: a real number is required, not %s", verb, typeName(arg))
		}
		n := arg
		if f, isFloat := arg.(float64); isFloat {
			if verb != 'd' && verb != 'i' {
				return "", typeErrorf("%%%c format: an integer is required, not float", verb)
			}
			var err error
			if n, err = intOfFloat(f); err != nil {
				return "", err
			}
		}
		b, _ := bigOf(n)
		neg := b.Sign() < 0
		base := map[byte]int{'d': 10, 'i': 10, 'x': 16, 'X': 16, 'o': 8}[verb]
		s := new(big.Int).Abs(b).Text(base)
		if pad := prec - len(s); pad > 0 {
			s = strings.Repeat("0", pad) + s // an integer's precision is its least digits
		}
		if strings.Contains(flags, "#") && verb != 'd' && verb != 'i' {
			s = "0" + string(verb|0x20) + s // the alternate form: 0x, 0o
		}
		if verb == 'X' {
			s = strings.ToUpper(s)
		}
		return sign(s, neg), nil
	case 'f', 'F', 'e', 'E', 'g', 'G':
		if !isNumber(arg) {
			return "", typeErrorf("must be real number, not %s", typeName(arg))
		}
		f, err := floatOf(arg)
		if err != nil {
			return "", err
		}
		if prec < 0 {
			prec = 6
		}
		s := strconv.FormatFloat(math.Abs(f), verb|0x20, prec, 64)
		if verb == 'E' || verb == 'G' {
			s = strings.ToUpper(s)
		}
		return sign(s, f < 0), nil
	case 'c':
		if i, ok := integer(arg); ok {
			return string(rune(i)), nil
		}
		if _, ok := arg.(*big.Int); ok {
			return "", errorf("%%c arg not in range(0x110000)")
		}
		if s, ok := text(arg); ok && utf8.RuneCountInString(s) == 1 {
			return s, nil
		}
		return "", typeErrorf("%%c requires int or char")
	}
	return "", errorf("unsupported format character '%c'", verb)
}
