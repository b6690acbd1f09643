package system

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// The pure part of the timezone module: what the host's files or
// timedatectl's status say of its zone and hardware clock, and the edits
// of the configuration files, as community.general's timezone reads and
// writes them.

// tzWS is the whitespace of Python's \s (ASCII).
const tzWS = `[ \t\n\r\f\v]`

// The patterns the module reads its values with.
var (
	tzSystemdRTC  = regexp.MustCompile(`(?m)^` + tzWS + `*RTC in local TZ` + tzWS + `*:` + tzWS + `*([^ \t\n\r\f\v]+)`)
	tzSystemdName = regexp.MustCompile(`(?m)^` + tzWS + `*Time ?zone` + tzWS + `*:` + tzWS + `*([^ \t\n\r\f\v]+)`)
	tzNameLine    = regexp.MustCompile(`(?m)^([^ \t\n\r\f\v]+)`)
	tzUTCLine     = regexp.MustCompile(`(?m)^UTC` + tzWS + `*=` + tzWS + `*([^ \t\n\r\f\v]+)`)
	tzAdjtime     = regexp.MustCompile(`(?m)^(UTC|LOCAL)$`)
	tzSuseLine    = regexp.MustCompile(`(?m)^TIMEZONE` + tzWS + `*=` + tzWS + `*"?([^" \t\n\r\f\v]+)"?`)
	tzRedhatLine  = regexp.MustCompile(`(?m)^ZONE` + tzWS + `*=` + tzWS + `*"?([^" \t\n\r\f\v]+)"?`)
	tzSuseKey     = regexp.MustCompile(`(?m)^TIMEZONE` + tzWS + `*=`)
	tzLinkZone    = regexp.MustCompile(`/(?:usr/share|etc)/zoneinfo/(.*)`)
)

// tzAbort is a failure the module reports through its abort: the message
// and the messages of what it did before.
type tzAbort struct{ msg string }

// Error renders the failure as the module's abort does.
func (e *tzAbort) Error() string { return e.msg }

// tzAbortMsg is the module's abort message: msg, then what it did before.
func tzAbortMsg(msg string, done []string) string {
	parts := []string{"Error message:", msg}
	if len(done) > 0 {
		parts = append(parts, "Other message(s):")
		parts = append(parts, done...)
	}
	return strings.Join(parts, "\n")
}

// tzConf is a configuration file the file-based way reads and edits.
type tzConf struct {
	path   string         // where it is
	blob   string         // the probe's name for it
	re     *regexp.Regexp // the line that holds the value
	format string         // the line written, with %s for the value
}

// tzFlavor is the file-based way of one family: the files of the zone
// name and of the hardware clock, and the commands that apply a zone.
type tzFlavor struct {
	name, hwclock tzConf
	hasHwclock    bool
	update        [][]string // commands that apply the zone after the file is written
}

// tzHost is what the probe of one round read from the host.
type tzHost struct {
	v     shared.Verdict
	blobs map[string]string
}

// tzAdjtimeConf is /etc/adjtime.
var tzAdjtimeConf = tzConf{path: "/etc/adjtime", blob: "adjtime", re: tzAdjtime}

// flavorFor picks the file-based way for the probed host (all but the
// zone file's commands, which need the zone); planned is the zone, ""
// when not given.
func flavorFor(h tzHost, hasName bool, planned string) (tzFlavor, error) {
	v := h.v
	zoneFile := "/usr/share/zoneinfo/" + planned
	f := tzFlavor{name: tzConf{path: "/etc/timezone", blob: "timezone", re: tzNameLine, format: "%s\n"}, hasHwclock: true}
	if hasName {
		f.update = [][]string{{v["bin_cp"], "--remove-destination", zoneFile, "/etc/localtime"}}
	}
	hw := tzConf{re: tzUTCLine, format: "UTC=%s\n"}
	dist := tzDistribution(v["dist"])
	switch {
	case v["bin_dpkg-reconfigure"] != "":
		if hasName {
			if v["bin_ln"] == "" {
				return f, missingBin("ln", v["paths"])
			}
			f.update = [][]string{{v["bin_ln"], "-sf", zoneFile, "/etc/localtime"},
				{v["bin_dpkg-reconfigure"], "--frontend", "noninteractive", "tzdata"}}
		}
		hw.path, hw.blob = "/etc/default/rcS", "rcs"
	case dist == "Alpine" || dist == "Gentoo":
		hw.path, hw.blob = "/etc/conf.d/hwclock", "confd"
		if dist == "Alpine" {
			if v["bin_setup-timezone"] == "" {
				return f, missingBin("setup-timezone", v["paths"])
			}
			f.update = [][]string{{v["bin_setup-timezone"], "-z", planned}}
		}
	default:
		// RedHat and SUSE: /etc/sysconfig/clock holds both.
		if v["bin_tzdata-update"] != "" && v["lt_link"] == "" {
			f.update = [][]string{{v["bin_tzdata-update"]}}
		}
		f.name = tzConf{path: "/etc/sysconfig/clock", blob: "clock", re: tzRedhatLine, format: "ZONE=\"%s\"\n"}
		switch v["f_clock"] {
		case "err":
			return f, &tzAbort{`could not read configuration file "/etc/sysconfig/clock"`}
		case "ok":
			if tzSuseKey.MatchString(h.blobs["clock"]) {
				f.name.re, f.name.format = tzSuseLine, "TIMEZONE=\"%s\"\n"
			}
		}
		// A missing file means RedHat's key: Ansible's own check for SUSE
		// there compares the distribution with "SuSE", which its
		// capitalized distribution ids never equal.
		hw.path, hw.blob = "/etc/sysconfig/clock", "clock"
	}
	f.hwclock = hw
	return f, nil
}

// tzDistribution is Ansible's get_distribution() for an os-release ID.
func tzDistribution(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" {
		return "OtherLinux"
	}
	d := strings.ToUpper(id[:1]) + id[1:]
	switch d {
	case "Amzn":
		return "Amazon"
	case "Rhel":
		return "Redhat"
	}
	return d
}

// missingBin is get_bin_path's failure for a required program.
func missingBin(prog, paths string) error {
	return fmt.Errorf("Failed to find required executable %q in paths: %s", prog, paths)
}

// tzBool converts a yes/no value of a file or of timedatectl as the
// module's boolean() does.
func tzBool(s string) (bool, error) {
	b, ok := boolean.Word(s)
	if !ok {
		return false, fmt.Errorf("The value '%s' is not a valid boolean.  Valid booleans include: %s", s, boolean.Valid)
	}
	return b, nil
}

// systemdValue reads key (name or hwclock) from timedatectl's status.
func systemdValue(status, key string) (string, error) {
	re := tzSystemdName
	if key == "hwclock" {
		re = tzSystemdRTC
	}
	m := re.FindStringSubmatch(status)
	if m == nil {
		return "", fmt.Errorf("timedatectl status shows no %s: %q", map[string]string{"name": "Time zone", "hwclock": "RTC in local TZ"}[key], status)
	}
	if key != "hwclock" {
		return m[1], nil
	}
	b, err := tzBool(m[1])
	if err != nil {
		return "", err
	}
	if b {
		return "local", nil
	}
	return "UTC", nil
}

// confValue is the value of key in the configuration file c as the
// module reads it in phase ("before" or "after").
func confValue(h tzHost, c tzConf, key, phase string) (string, error) {
	switch h.v["f_"+c.blob] {
	case "missing":
		if key == "adjtime" {
			return "UTC", nil
		}
		return "n/a", nil
	case "ok":
	default:
		return "", &tzAbort{fmt.Sprintf(`tried to configure %s using a file "%s", but could not read it`, key, c.path)}
	}
	m := c.re.FindStringSubmatch(tzText(h.blobs[c.blob]))
	if m == nil {
		switch key {
		case "hwclock":
			return "n/a", nil
		case "adjtime":
			return "UTC", nil
		}
		if phase == "before" {
			return "n/a", nil
		}
		return "", &tzAbort{fmt.Sprintf(`tried to configure %s using a file "%s", but could not find a valid value in it`, key, c.path)}
	}
	switch key {
	case "hwclock":
		b, err := tzBool(m[1])
		if err != nil {
			return "", err
		}
		if b {
			return "UTC", nil
		}
		return "local", nil
	case "adjtime":
		if m[1] != "UTC" {
			return strings.ToLower(m[1]), nil
		}
	}
	return m[1], nil
}

// fileValue is the file-based way's value of key in phase.
func fileValue(h tzHost, f tzFlavor, key, planned, phase string) (string, error) {
	if key == "hwclock" {
		v, err := confValue(h, f.hwclock, "hwclock", phase)
		if err != nil || v != planned {
			return v, err
		}
		return confValue(h, tzAdjtimeConf, "adjtime", phase)
	}
	v, err := confValue(h, f.name, "name", phase)
	if err != nil || v != planned {
		return v, err
	}
	if h.v["lt_link"] != "" {
		if h.v["lt_exists"] == "" {
			return "n/a", nil
		}
		target := strings.TrimSuffix(h.blobs["lt"], "\n")
		m := tzLinkZone.FindStringSubmatch(target)
		if m == nil {
			return "n/a", nil
		}
		if zone, _, _ := strings.Cut(m[1], "\n"); zone != planned {
			return zone, nil
		}
		return v, nil
	}
	if h.v["lt_same"] == "" {
		return "n/a", nil
	}
	return v, nil
}

// tzText is a file's text as Python's text mode reads it: \r\n and \r
// read as \n.
func tzText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// editConf is the module's edit of a configuration file: the first line
// re matches becomes line, the other matching lines go; with no match,
// line comes first. It returns the new text and the number of lines
// deleted.
func editConf(text string, re *regexp.Regexp, line string) (string, int) {
	lines := shared.SplitLinesKeep(tzText(text))
	var kept []string
	insert, deleted := -1, 0
	for _, l := range lines {
		if re.MatchString(l) {
			if insert < 0 {
				insert = len(kept)
			}
			deleted++
			continue
		}
		kept = append(kept, l)
	}
	if insert < 0 {
		insert = 0
	}
	out := append([]string{}, kept[:insert]...)
	out = append(out, line)
	out = append(out, kept[insert:]...)
	return strings.Join(out, ""), deleted
}

// tzRepr is Python's repr of the module's dict of values, in its order
// (hwclock, then name).
func tzRepr(keys []string, vals map[string]string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = shared.PyRepr(k) + ": " + shared.PyRepr(vals[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
