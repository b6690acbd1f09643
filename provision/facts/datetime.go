package facts

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// dateTime sets ansible_date_time from the host's clock as the script's
// one date call read it ("epoch nanoseconds ±hhmm zone"; busybox's date
// has no nanoseconds, which then count as 0). tz_dst is the daylight-saving
// name of the local zone's rule (Python's time.tzname[1]), read from the
// end of the zone file or $TZ; without either it is the current zone name.
func dateTime(r *raw, f map[string]any) {
	fs := strings.Fields(r.values["date"])
	if len(fs) < 4 {
		return
	}
	epoch, err := strconv.ParseInt(fs[0], 10, 64)
	if err != nil {
		return
	}
	nanos, _ := strconv.ParseInt(fs[1], 10, 64)
	offset, ok := parseOffset(fs[2])
	if !ok {
		return
	}
	zone := strings.Join(fs[3:], " ")
	dst := zone
	if _, d, ok := tzNames(r.values["tzfooter"]); ok {
		dst = d
	} else if tz, set := r.env["TZ"]; set && r.values["tzfooter"] == "" {
		if _, d, ok := tzNames(strings.TrimPrefix(tz, ":")); ok {
			dst = d
		}
	}
	f["date_time"] = formatDateTime(time.Unix(epoch, nanos), offset, zone, fs[2], dst)
}

// formatDateTime renders the date_time fact for an instant, as Python's
// strftime renders it in the host's zone (offset seconds east of UTC).
func formatDateTime(t time.Time, offset int, zone, zoneOffset, dst string) map[string]any {
	local := t.In(time.FixedZone(zone, offset))
	utc := t.UTC()
	micro := fmt.Sprintf("%06d", t.Nanosecond()/1000)
	wday := int(local.Weekday())
	yday := local.YearDay() - 1
	return map[string]any{
		"year":                local.Format("2006"),
		"month":               local.Format("01"),
		"weekday":             local.Weekday().String(),
		"weekday_number":      strconv.Itoa(wday),
		"weeknumber":          fmt.Sprintf("%02d", (yday+7-(wday+6)%7)/7),
		"day":                 local.Format("02"),
		"hour":                local.Format("15"),
		"minute":              local.Format("04"),
		"second":              local.Format("05"),
		"epoch":               strconv.FormatInt(t.Unix(), 10),
		"epoch_int":           strconv.FormatInt(t.Unix(), 10),
		"date":                local.Format("2006-01-02"),
		"time":                local.Format("15:04:05"),
		"iso8601_micro":       utc.Format("2006-01-02T15:04:05") + "." + micro + "Z",
		"iso8601":             utc.Format("2006-01-02T15:04:05Z"),
		"iso8601_basic":       local.Format("20060102T150405") + micro,
		"iso8601_basic_short": local.Format("20060102T150405"),
		"tz":                  zone,
		"tz_dst":              dst,
		"tz_offset":           zoneOffset,
	}
}

// parseOffset reads date's %z: ±hhmm.
func parseOffset(s string) (int, bool) {
	if len(s) != 5 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[1:3])
	m, err2 := strconv.Atoi(s[3:5])
	if err1 != nil || err2 != nil {
		return 0, false
	}
	sec := h*3600 + m*60
	if s[0] == '-' {
		sec = -sec
	}
	return sec, true
}

var reTZ = regexp.MustCompile(`^(<[^>]*>|[A-Za-z]{3,})[+-]?[0-9]{1,2}(:[0-9]{1,2}){0,2}(<[^>]*>|[A-Za-z]{3,})?`)

// tzNames reads a POSIX TZ rule ("CET-1CEST,M3.5.0,M10.5.0/3"): the
// standard and daylight-saving zone names, the latter being the former
// when the rule has none, as the C library's tzname has them.
func tzNames(rule string) (std, dst string, ok bool) {
	m := reTZ.FindStringSubmatch(strings.TrimSpace(rule))
	if m == nil {
		return "", "", false
	}
	std = strings.Trim(m[1], "<>")
	dst = std
	if m[3] != "" {
		dst = strings.Trim(m[3], "<>")
	}
	return std, dst, true
}
