package expr

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Python's datetime.datetime, datetime.date and datetime.timedelta, as
// now(), to_datetime and the template lookup's template_mtime make them.

// dateTime is a datetime (or, with dateOnly, a date). A naive value (no
// UTC offset, as now() and most of to_datetime's give) keeps its wall
// clock in t with the UTC location; an aware one has a fixed zone.
type dateTime struct {
	t        time.Time
	aware    bool
	dateOnly bool
}

// timeDelta is a timedelta, in microseconds.
type timeDelta struct{ us int64 }

const (
	usPerSec = int64(1_000_000)
	usPerDay = 86400 * usPerSec
)

// now is Ansible's now(utc=False, fmt=None): the current local (or UTC)
// time as a naive datetime, or formatted by strftime when fmt is given.
func now(args []any, kw map[string]any) (any, error) {
	for k := range kw {
		if k != "utc" && k != "fmt" {
			return nil, typeErrorf("_now_datetime() got an unexpected keyword argument '%s'", k)
		}
	}
	if len(args) > 2 {
		return nil, typeErrorf("_now_datetime() takes from 1 to 3 positional arguments but %d were given", len(args)+1)
	}
	t := time.Now()
	if Truthy(argOr(args, kw, 0, "utc", false)) {
		t = t.UTC()
	}
	d := naive(t)
	if f := argOr(args, kw, 1, "fmt", nil); Truthy(f) {
		return d.strftime(Str(f))
	}
	return d, nil
}

// naive is t's wall clock as a naive datetime, to the microsecond.
func naive(t time.Time) *dateTime {
	w := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000*1000, time.UTC)
	return &dateTime{t: w}
}

func (d *dateTime) inRange() error {
	if y := d.t.Year(); y < 1 || y > 9999 {
		return errorf("date value out of range")
	}
	return nil
}

func (d *dateTime) str() string {
	if d.dateOnly {
		return d.t.Format("2006-01-02")
	}
	return d.isoformat(" ")
}

// isoformat is Python's isoformat(sep).
func (d *dateTime) isoformat(sep string) string {
	if d.dateOnly {
		return d.t.Format("2006-01-02")
	}
	s := fmt.Sprintf("%04d-%02d-%02d%s%02d:%02d:%02d", d.t.Year(), int(d.t.Month()), d.t.Day(), sep, d.t.Hour(), d.t.Minute(), d.t.Second())
	if us := d.t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if d.aware {
		s += utcOffset(d.t, ":")
	}
	return s
}

// utcOffset is +HH:MM (with sep) for t's zone, as Python prints it.
func utcOffset(t time.Time, sep string) string {
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	s := fmt.Sprintf("%s%02d%s%02d", sign, off/3600, sep, off/60%60)
	if off%60 != 0 {
		s += fmt.Sprintf("%s%02d", sep, off%60)
	}
	return s
}

func (d *dateTime) repr() string {
	t := d.t
	if d.dateOnly {
		return fmt.Sprintf("datetime.date(%d, %d, %d)", t.Year(), int(t.Month()), t.Day())
	}
	s := fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d", t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute())
	us := t.Nanosecond() / 1000
	if t.Second() != 0 || us != 0 {
		s += fmt.Sprintf(", %d", t.Second())
	}
	if us != 0 {
		s += fmt.Sprintf(", %d", us)
	}
	if d.aware {
		_, off := t.Zone()
		if off == 0 {
			s += ", tzinfo=datetime.timezone.utc"
		} else {
			s += ", tzinfo=datetime.timezone(" + (&timeDelta{int64(off) * usPerSec}).repr() + ")"
		}
	}
	return s + ")"
}

func (d *dateTime) typeName() string {
	if d.dateOnly {
		return "date"
	}
	return "datetime"
}

func (d *dateTime) attr(name string) (any, bool) {
	t := d.t
	switch name {
	case "year":
		return t.Year(), true
	case "month":
		return int(t.Month()), true
	case "day":
		return t.Day(), true
	}
	if d.dateOnly {
		return nil, false
	}
	switch name {
	case "hour":
		return t.Hour(), true
	case "minute":
		return t.Minute(), true
	case "second":
		return t.Second(), true
	case "microsecond":
		return t.Nanosecond() / 1000, true
	case "fold":
		return 0, true
	case "tzinfo":
		if !d.aware {
			return nil, true
		}
	}
	return nil, false
}

func (d *dateTime) method(_ *evaluator, name string, args []any, kw map[string]any) (any, bool, error) {
	t := d.t
	switch name {
	case "strftime":
		if len(args) == 0 {
			return nil, true, typeErrorf("strftime() missing required argument 'format' (pos 1)")
		}
		if len(args) > 1 {
			return nil, true, typeErrorf("strftime() takes at most 1 argument (%d given)", len(args))
		}
		s, err := d.strftime(Str(args[0]))
		return s, true, err
	case "isoformat":
		return d.isoformat(Str(argOr(args, kw, 0, "sep", "T"))), true, nil
	case "weekday":
		return (int(t.Weekday()) + 6) % 7, true, nil
	case "isoweekday":
		return (int(t.Weekday())+6)%7 + 1, true, nil
	case "toordinal":
		return int(t.Sub(time.Date(1, 1, 1, 0, 0, 0, 0, t.Location())).Hours()/24) + 1, true, nil
	case "ctime":
		return t.Format("Mon Jan _2 15:04:05 2006"), true, nil
	case "isocalendar":
		y, w := t.ISOWeek()
		return []any{y, w, (int(t.Weekday())+6)%7 + 1}, true, nil
	case "date":
		return &dateTime{t: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), dateOnly: true}, true, nil
	}
	if d.dateOnly {
		return nil, false, nil
	}
	switch name {
	case "timestamp":
		if d.aware {
			return float64(t.UnixMicro()) / 1e6, true, nil
		}
		local := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.Local)
		return float64(local.UnixMicro()) / 1e6, true, nil
	case "utcoffset":
		if !d.aware {
			return nil, true, nil
		}
		_, off := t.Zone()
		return &timeDelta{int64(off) * usPerSec}, true, nil
	case "replace":
		return d.replace(args, kw)
	}
	return nil, false, nil
}

// replace is datetime.replace(year=…, month=…, …) with keywords.
func (d *dateTime) replace(args []any, kw map[string]any) (any, bool, error) {
	if len(args) > 0 {
		return nil, true, errorf("tender supports datetime.replace() with keyword arguments only")
	}
	t := d.t
	f := map[string]int{"year": t.Year(), "month": int(t.Month()), "day": t.Day(), "hour": t.Hour(),
		"minute": t.Minute(), "second": t.Second(), "microsecond": t.Nanosecond() / 1000}
	for k, v := range kw {
		if _, ok := f[k]; !ok {
			return nil, true, typeErrorf("'%s' is an invalid keyword argument for replace()", k)
		}
		n, ok := v.(int)
		if !ok {
			return nil, true, errorf("'%s' object cannot be interpreted as an integer", typeName(v))
		}
		f[k] = n
	}
	nt, err := makeTime(f["year"], f["month"], f["day"], f["hour"], f["minute"], f["second"], f["microsecond"], t.Location())
	if err != nil {
		return nil, true, err
	}
	return &dateTime{t: nt, aware: d.aware}, true, nil
}

// makeTime builds a time, refusing fields Python's datetime refuses.
func makeTime(y, mo, d, h, mi, s, us int, loc *time.Location) (time.Time, error) {
	switch {
	case y < 1 || y > 9999:
		return time.Time{}, errorf("year %d is out of range", y)
	case mo < 1 || mo > 12:
		return time.Time{}, errorf("month must be in 1..12")
	case d < 1 || d > daysIn(y, mo):
		return time.Time{}, errorf("day is out of range for month")
	case h < 0 || h > 23:
		return time.Time{}, errorf("hour must be in 0..23")
	case mi < 0 || mi > 59:
		return time.Time{}, errorf("minute must be in 0..59")
	case s < 0 || s > 59:
		return time.Time{}, errorf("second must be in 0..59")
	case us < 0 || us > 999999:
		return time.Time{}, errorf("microsecond must be in 0..999999")
	}
	return time.Date(y, time.Month(mo), d, h, mi, s, us*1000, loc), nil
}

func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// parts is Python's normalized days, seconds and microseconds.
func (d *timeDelta) parts() (days, secs, us int64) {
	days = floorDiv(d.us, usPerDay)
	rest := d.us - days*usPerDay
	return days, rest / usPerSec, rest % usPerSec
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func (d *timeDelta) str() string {
	days, secs, us := d.parts()
	s := fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	if us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if days != 0 {
		plural := "s"
		if days == 1 || days == -1 {
			plural = ""
		}
		s = fmt.Sprintf("%d day%s, %s", days, plural, s)
	}
	return s
}

func (d *timeDelta) repr() string {
	days, secs, us := d.parts()
	var parts []string
	for _, p := range []struct {
		n string
		v int64
	}{{"days", days}, {"seconds", secs}, {"microseconds", us}} {
		if p.v != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", p.n, p.v))
		}
	}
	if parts == nil {
		return "datetime.timedelta(0)"
	}
	return "datetime.timedelta(" + strings.Join(parts, ", ") + ")"
}

func (d *timeDelta) typeName() string { return "timedelta" }

func (d *timeDelta) attr(name string) (any, bool) {
	days, secs, us := d.parts()
	switch name {
	case "days":
		return int(days), true
	case "seconds":
		return int(secs), true
	case "microseconds":
		return int(us), true
	}
	return nil, false
}

func (d *timeDelta) method(_ *evaluator, name string, _ []any, _ map[string]any) (any, bool, error) {
	if name == "total_seconds" {
		return float64(d.us) / 1e6, true, nil
	}
	return nil, false, nil
}

// dateArith is + and - with datetimes and timedeltas; ok is false when
// neither operand is one.
func dateArith(op string, l, r any) (any, bool, error) {
	ld, lIsDate := l.(*dateTime)
	rd, rIsDate := r.(*dateTime)
	lt, lIsDelta := l.(*timeDelta)
	rt, rIsDelta := r.(*timeDelta)
	if !lIsDate && !rIsDate && !lIsDelta && !rIsDelta {
		return nil, false, nil
	}
	switch {
	case op == "-" && lIsDate && rIsDate:
		if ld.dateOnly != rd.dateOnly {
			break
		}
		if ld.aware != rd.aware {
			return nil, true, errorf("can't subtract offset-naive and offset-aware datetimes")
		}
		return &timeDelta{ld.t.Sub(rd.t).Microseconds()}, true, nil
	case (op == "+" || op == "-") && lIsDate && rIsDelta, op == "+" && lIsDelta && rIsDate:
		d, delta := ld, rt
		if rIsDate {
			d, delta = rd, lt
		}
		us := delta.us
		if op == "-" {
			us = -us
		}
		if d.dateOnly {
			us = floorDiv(us, usPerDay) * usPerDay
		}
		if math.Abs(float64(us)) > 4e17 {
			return nil, true, errorf("date value out of range")
		}
		out := &dateTime{t: d.t.Add(time.Duration(us) * time.Microsecond), aware: d.aware, dateOnly: d.dateOnly}
		return out, true, out.inRange()
	case lIsDelta && rIsDelta:
		switch op {
		case "+":
			return &timeDelta{lt.us + rt.us}, true, nil
		case "-":
			return &timeDelta{lt.us - rt.us}, true, nil
		case "/":
			if rt.us == 0 {
				return nil, true, zeroDivision("division by zero")
			}
			return float64(lt.us) / float64(rt.us), true, nil
		case "//":
			if rt.us == 0 {
				return nil, true, zeroDivision("integer division or modulo by zero")
			}
			return int(floorDiv(lt.us, rt.us)), true, nil
		}
	case lIsDelta || rIsDelta:
		d, other := lt, r
		if rIsDelta {
			d, other = rt, l
		}
		if n, isInt := other.(int); isInt && (op == "*" || lIsDelta && op == "//") {
			if op == "//" {
				if n == 0 {
					return nil, true, zeroDivision("integer division or modulo by zero")
				}
				return &timeDelta{floorDiv(d.us, int64(n))}, true, nil
			}
			if n != 0 && math.Abs(float64(d.us)*float64(n)) > 8.64e19 {
				return nil, true, errorf("timedelta too large")
			}
			return &timeDelta{d.us * int64(n)}, true, nil
		}
	}
	return nil, true, unsupported(op, l, r)
}

// dateCompare orders datetimes and timedeltas; ok is false when neither
// operand is one.
func dateCompare(op string, a, b any) (int, bool, error) {
	ad, aIsDate := a.(*dateTime)
	bd, bIsDate := b.(*dateTime)
	at, aIsDelta := a.(*timeDelta)
	bt, bIsDelta := b.(*timeDelta)
	switch {
	case aIsDate && bIsDate:
		if ad.dateOnly != bd.dateOnly {
			return 0, true, errorf("can't compare %s to %s", "datetime."+ad.typeName(), "datetime."+bd.typeName())
		}
		if ad.aware != bd.aware {
			return 0, true, errorf("can't compare offset-naive and offset-aware datetimes")
		}
		return ad.t.Compare(bd.t), true, nil
	case aIsDelta && bIsDelta:
		return cmpOrdered(int(at.us), int(bt.us)), true, nil
	case aIsDate || bIsDate || aIsDelta || bIsDelta:
		return 0, true, typeErrorf("'%s' not supported between instances of '%s' and '%s'", op, typeName(a), typeName(b))
	}
	return 0, false, nil
}

// dateEqual is == for datetimes and timedeltas.
func dateEqual(a, b any) (bool, bool) {
	if c, ok, err := dateCompare("==", a, b); ok {
		return err == nil && c == 0, true
	}
	return false, false
}
