package expr

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// strftime formats as Python's datetime.strftime on glibc in the C locale:
// Python's own %f, %z and %Z (empty for a naive value), glibc's
// conversions with its -, _, 0 and ^ flags; an unknown conversion is
// copied as it is.
func (d *dateTime) strftime(format string) (string, error) {
	zone, offset := "", ""
	if d.aware {
		zone, _ = d.t.Zone()
		if strings.HasPrefix(zone, "+") || strings.HasPrefix(zone, "-") || zone == "" {
			zone = "UTC" + utcOffset(d.t, ":")
			if _, off := d.t.Zone(); off == 0 {
				zone = "UTC"
			}
		}
		offset = utcOffset(d.t, "")
	}
	epoch := func() int64 {
		if d.aware {
			return d.t.Unix()
		}
		t := d.t
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.Local).Unix()
	}
	return cStrftime(d.t, format, zone, offset, epoch)
}

var (
	weekdayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthNames   = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// cStrftime is glibc's strftime in the C locale for the wall clock of t;
// zone and offset are what %Z and %z print, epoch what %s prints.
func cStrftime(t time.Time, format, zone, offset string, epoch func() int64) (string, error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if b.Len() > maxSize {
			return "", errorf("formatted date too large")
		}
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		flag := byte(0)
		for i < len(format) && strings.IndexByte("-_0^#", format[i]) >= 0 {
			flag = format[i]
			i++
		}
		width := 0
		for i < len(format) && isDigit(format[i]) && width < 1000 {
			width = width*10 + int(format[i]-'0')
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		s, num, pad, ok := conversion(t, format[i], zone, offset, epoch)
		if !ok {
			b.WriteString(format[start : i+1])
			continue
		}
		if s == "" && num >= 0 {
			s = strconv.Itoa(num)
			if width == 0 {
				width = pad
			}
			padc := "0"
			if format[i] == 'e' || format[i] == 'k' || format[i] == 'l' {
				padc = " "
			}
			switch flag {
			case '-':
				width = 0
			case '_':
				padc = " "
			case '0':
				padc = "0"
			}
			for len(s) < width {
				s = padc + s
			}
		} else {
			if flag == '^' {
				s = strings.ToUpper(s)
			}
			for len(s) < width {
				s = " " + s
			}
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// conversion is one strftime conversion: text, or a number with its
// default width.
func conversion(t time.Time, c byte, zone, offset string, epoch func() int64) (s string, num, pad int, ok bool) {
	num = -1
	wd := int(t.Weekday())
	yday := t.YearDay()
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	sub := func(f string) string { s, _ := cStrftime(t, f, zone, offset, epoch); return s }
	switch c {
	case 'a':
		return weekdayNames[wd][:3], -1, 0, true
	case 'A':
		return weekdayNames[wd], -1, 0, true
	case 'b', 'h':
		return monthNames[t.Month()-1][:3], -1, 0, true
	case 'B':
		return monthNames[t.Month()-1], -1, 0, true
	case 'c':
		return sub("%a %b %e %H:%M:%S %Y"), -1, 0, true
	case 'C':
		return "", t.Year() / 100, 2, true
	case 'd':
		return "", t.Day(), 2, true
	case 'D', 'x':
		return sub("%m/%d/%y"), -1, 0, true
	case 'e':
		return "", t.Day(), 2, true
	case 'f':
		return fmt.Sprintf("%06d", t.Nanosecond()/1000), -1, 0, true
	case 'F':
		return sub("%Y-%m-%d"), -1, 0, true
	case 'G':
		y, _ := t.ISOWeek()
		return "", y, 1, true
	case 'g':
		y, _ := t.ISOWeek()
		return "", y % 100, 2, true
	case 'H':
		return "", t.Hour(), 2, true
	case 'I':
		return "", hour12, 2, true
	case 'j':
		return "", yday, 3, true
	case 'k':
		return "", t.Hour(), 2, true
	case 'l':
		return "", hour12, 2, true
	case 'm':
		return "", int(t.Month()), 2, true
	case 'M':
		return "", t.Minute(), 2, true
	case 'n':
		return "\n", -1, 0, true
	case 'p':
		if t.Hour() < 12 {
			return "AM", -1, 0, true
		}
		return "PM", -1, 0, true
	case 'P':
		if t.Hour() < 12 {
			return "am", -1, 0, true
		}
		return "pm", -1, 0, true
	case 'r':
		return sub("%I:%M:%S %p"), -1, 0, true
	case 'R':
		return sub("%H:%M"), -1, 0, true
	case 's':
		return strconv.FormatInt(epoch(), 10), -1, 0, true
	case 'S':
		return "", t.Second(), 2, true
	case 't':
		return "\t", -1, 0, true
	case 'T', 'X':
		return sub("%H:%M:%S"), -1, 0, true
	case 'u':
		return "", (wd+6)%7 + 1, 1, true
	case 'U':
		return "", (yday + 6 - wd) / 7, 2, true
	case 'V':
		_, w := t.ISOWeek()
		return "", w, 2, true
	case 'w':
		return "", wd, 1, true
	case 'W':
		return "", (yday + 6 - (wd+6)%7) / 7, 2, true
	case 'y':
		return "", t.Year() % 100, 2, true
	case 'Y':
		return "", t.Year(), 1, true
	case 'z':
		return offset, -1, 0, true
	case 'Z':
		return zone, -1, 0, true
	case '%':
		return "%", -1, 0, true
	}
	return "", -1, 0, false
}

// strptimeRE is the regular expression of each strptime conversion (they
// match as Python's _strptime does, alternatives in the same order).
var strptimeRE = map[byte]string{
	'd': `3[01]|[12]\d|0[1-9]|[1-9]| [1-9]`,
	'f': `\d{1,6}`,
	'H': `2[0-3]|[0-1]\d|\d`,
	'I': `1[0-2]|0[1-9]|[1-9]`,
	'j': `36[0-6]|3[0-5]\d|[12]\d\d|0[1-9]\d|00[1-9]|[1-9]\d|0[1-9]|[1-9]`,
	'm': `1[0-2]|0[1-9]|[1-9]`,
	'M': `[0-5]\d|\d`,
	'S': `6[0-1]|[0-5]\d|\d`,
	'y': `\d\d`,
	'Y': `\d\d\d\d`,
	'z': `[zZ]|[+-]\d\d:?[0-5]\d(?::?[0-5]\d(?:\.\d{1,6})?)?`,
	'p': `am|pm`,
	'a': `monday|tuesday|wednesday|thursday|saturday|sunday|friday|mon|tue|wed|thu|fri|sat|sun`,
	'b': `september|february|november|december|january|october|august|march|april|july|june|may|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec`,
	'Z': `utc|gmt`,
	'%': `%`,
}

// strptime is Python's datetime.strptime: each conversion matches its
// regular expression (case-insensitively), a run of whitespace in the
// format matches any run of whitespace, anything else matches itself.
func strptime(s, format string) (*dateTime, error) {
	if len(format) > 4096 {
		return nil, errorf("to_datetime: format too long")
	}
	var re strings.Builder
	re.WriteString("(?i)^")
	var order []byte
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case unicode.IsSpace(rune(c)):
			for i+1 < len(format) && unicode.IsSpace(rune(format[i+1])) {
				i++
			}
			re.WriteString(`\s+`)
		case c == '%' && i+1 < len(format):
			i++
			d := format[i]
			switch d {
			case 'A':
				d = 'a'
			case 'B', 'h':
				d = 'b'
			}
			pat, ok := strptimeRE[d]
			if !ok {
				if strings.IndexByte("wuUWVGcxX", d) >= 0 {
					return nil, errorf("tender's to_datetime does not support %%%c", d)
				}
				return nil, valueErrorf("'%c' is a bad directive in format %s", format[i], Repr(format))
			}
			re.WriteString("(" + pat + ")")
			order = append(order, d)
		default:
			re.WriteString(regexp.QuoteMeta(format[i : i+1]))
		}
	}
	rx, err := regexp.Compile(re.String())
	if err != nil {
		return nil, errorf("to_datetime: %v", err)
	}
	m := rx.FindStringSubmatch(s)
	if m == nil {
		return nil, valueErrorf("time data %s does not match format %s", Repr(s), Repr(format))
	}
	if len(m[0]) != len(s) {
		return nil, valueErrorf("unconverted data remains: %s", s[len(m[0]):])
	}
	f := map[byte]int{'Y': 1900, 'm': 1, 'd': 1}
	frac, yday, pm := 0, -1, -1
	var offset *int
	for k, d := range order {
		g := strings.TrimSpace(m[k+1])
		n, _ := strconv.Atoi(g)
		switch d {
		case 'y':
			if n < 69 {
				n += 2000
			} else {
				n += 1900
			}
			f['Y'] = n
		case 'f':
			frac = n
			for i := len(g); i < 6; i++ {
				frac *= 10
			}
		case 'j':
			yday = n
		case 'p':
			pm = 0
			if strings.EqualFold(g, "pm") {
				pm = 1
			}
		case 'b':
			for i, name := range monthNames {
				if strings.EqualFold(g, name) || strings.EqualFold(g, name[:3]) {
					f['m'] = i + 1
				}
			}
		case 'z':
			pos := 0
			off, _ := parseOffset(g, &pos)
			offset = &off
		case 'Y', 'm', 'd', 'H', 'M', 'S', 'I':
			f[d] = n
		}
	}
	hour := f['H']
	if _, twelve := f['I']; twelve {
		hour = f['I'] % 12
		if pm == 1 {
			hour += 12
		}
	}
	loc := time.UTC
	if offset != nil {
		loc = time.FixedZone("", *offset)
	}
	t, err := makeTime(f['Y'], f['m'], f['d'], hour, f['M'], f['S'], frac, loc)
	if err != nil {
		return nil, err
	}
	if yday > 0 {
		t = time.Date(f['Y'], 1, 1, hour, f['M'], f['S'], frac*1000, loc).AddDate(0, 0, yday-1)
	}
	return &dateTime{t: t, aware: offset != nil}, nil
}

// parseOffset reads %z: Z, or ±HH[:]MM[[:]SS].
func parseOffset(s string, pos *int) (int, bool) {
	p := *pos
	if p < len(s) && (s[p] == 'Z' || s[p] == 'z') {
		*pos = p + 1
		return 0, true
	}
	if p >= len(s) || s[p] != '+' && s[p] != '-' {
		return 0, false
	}
	sign := 1
	if s[p] == '-' {
		sign = -1
	}
	p++
	var parts []int
	for len(parts) < 3 {
		if len(parts) > 0 && p < len(s) && s[p] == ':' {
			p++
		}
		if p+2 > len(s) || !isDigit(s[p]) || !isDigit(s[p+1]) {
			break
		}
		n, _ := strconv.Atoi(s[p : p+2])
		parts = append(parts, n)
		p += 2
	}
	if len(parts) < 2 {
		return 0, false
	}
	off := parts[0]*3600 + parts[1]*60
	if len(parts) == 3 {
		off += parts[2]
	}
	*pos = p
	return sign * off, true
}

// Strptime parses s as Python's time.strptime(s, format) does and returns
// the wall-clock time it names (in UTC, or at the parsed %z offset), with
// Python's message ("time data '…' does not match format '…'",
// "unconverted data remains: …") when s does not fit the format.
func Strptime(s, format string) (time.Time, error) {
	d, err := strptime(s, format)
	if err != nil {
		return time.Time{}, err
	}
	return d.t, nil
}
