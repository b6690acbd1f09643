package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestEditConf checks the configuration file edit: the first matching
// line replaced, the others deleted, the line first when none matches.
func TestEditConf(t *testing.T) {
	for _, c := range []struct {
		text, line, want string
		deleted          int
	}{
		{"Etc/UTC\n", "Asia/Tokyo\n", "Asia/Tokyo\n", 1},
		{"", "Asia/Tokyo\n", "Asia/Tokyo\n", 0},
		{"# zone\n\nEurope/Paris\nfoo bar\n", "America/New_York\n", "America/New_York\n\n", 3},
		{"\n  x\n", "A\n", "A\n\n  x\n", 0},
		{"a\r\nb\r\n", "Z\n", "Z\n", 2},
	} {
		got, n := editConf(c.text, tzNameLine, c.line)
		if got != c.want || n != c.deleted {
			t.Errorf("editConf(%q) = %q, %d; want %q, %d", c.text, got, n, c.want, c.deleted)
		}
	}
	got, n := editConf("# comment\nUTC=yes\nUTC = no\n", tzUTCLine, "UTC=no\n")
	if got != "# comment\nUTC=no\n" || n != 2 {
		t.Errorf("rcS edit = %q, %d", got, n)
	}
	got, n = editConf("HWCLOCK=\"-u\"\nZONE=\"UTC\"\n", tzRedhatLine, "ZONE=\"Asia/Tokyo\"\n")
	if got != "HWCLOCK=\"-u\"\nZONE=\"Asia/Tokyo\"\n" || n != 1 {
		t.Errorf("clock edit = %q, %d", got, n)
	}
}

// TestTimezoneValues checks how the values are read from the host's
// files and timedatectl's status.
func TestTimezoneValues(t *testing.T) {
	deb := tzFlavor{name: tzConf{path: "/etc/timezone", blob: "timezone", re: tzNameLine},
		hwclock: tzConf{path: "/etc/default/rcS", blob: "rcs", re: tzUTCLine}, hasHwclock: true}
	host := func(v shared.Verdict, blobs map[string]string) tzHost { return tzHost{v: v, blobs: blobs} }
	for _, c := range []struct {
		name, key, planned, phase string
		h                         tzHost
		want, err                 string
	}{
		{"no file", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "missing"}, nil), "n/a", ""},
		{"other zone", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "ok"}, map[string]string{"timezone": "Etc/UTC\n"}), "Etc/UTC", ""},
		{"link agrees", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "ok", "lt_link": "1", "lt_exists": "1"},
			map[string]string{"timezone": "Asia/Tokyo\n", "lt": "/usr/share/zoneinfo/Asia/Tokyo\n"}), "Asia/Tokyo", ""},
		{"link differs", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "ok", "lt_link": "1", "lt_exists": "1"},
			map[string]string{"timezone": "Asia/Tokyo\n", "lt": "../usr/share/zoneinfo/UTC\n"}), "UTC", ""},
		{"link elsewhere", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "ok", "lt_link": "1", "lt_exists": "1"},
			map[string]string{"timezone": "Asia/Tokyo\n", "lt": "/etc/hostname\n"}), "n/a", ""},
		{"broken link", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "ok", "lt_link": "1"},
			map[string]string{"timezone": "Asia/Tokyo\n", "lt": "/usr/share/zoneinfo/Asia/Tokyo\n"}), "n/a", ""},
		{"copy differs", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "ok"}, map[string]string{"timezone": "Asia/Tokyo\n"}), "n/a", ""},
		{"copy same", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "ok", "lt_same": "1"}, map[string]string{"timezone": "Asia/Tokyo\n"}), "Asia/Tokyo", ""},
		{"empty after", "name", "Asia/Tokyo", "after", host(shared.Verdict{"f_timezone": "ok"}, map[string]string{"timezone": "\n"}), "",
			`tried to configure name using a file "/etc/timezone", but could not find a valid value in it`},
		{"unreadable", "name", "Asia/Tokyo", "before", host(shared.Verdict{"f_timezone": "err"}, nil), "",
			`tried to configure name using a file "/etc/timezone", but could not read it`},
		{"rcS missing", "hwclock", "local", "before", host(shared.Verdict{"f_rcs": "missing"}, nil), "n/a", ""},
		{"rcS no, no adjtime", "hwclock", "local", "before", host(shared.Verdict{"f_rcs": "ok", "f_adjtime": "missing"},
			map[string]string{"rcs": "UTC=no\n"}), "UTC", ""},
		{"rcS no, adjtime LOCAL", "hwclock", "local", "before", host(shared.Verdict{"f_rcs": "ok", "f_adjtime": "ok"},
			map[string]string{"rcs": "UTC=no\n", "adjtime": "0.0 0 0.0\n0\nLOCAL\n"}), "local", ""},
		{"rcS yes", "hwclock", "local", "before", host(shared.Verdict{"f_rcs": "ok"}, map[string]string{"rcs": "UTC=yes\n"}), "UTC", ""},
		{"rcS bad", "hwclock", "local", "before", host(shared.Verdict{"f_rcs": "ok"}, map[string]string{"rcs": "UTC=maybe\n"}), "",
			"The value 'maybe' is not a valid boolean."},
	} {
		got, err := fileValue(c.h, deb, c.key, c.planned, c.phase)
		if c.err != "" {
			if err == nil || len(err.Error()) < len(c.err) || err.Error()[:len(c.err)] != c.err {
				t.Errorf("%s: err %v, want %s", c.name, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	status := "      Local time: Mon\n       Time zone: Asia/Tokyo (JST, +0900)\n RTC in local TZ: yes\n"
	if v, err := systemdValue(status, "name"); v != "Asia/Tokyo" || err != nil {
		t.Errorf("systemd name = %q, %v", v, err)
	}
	if v, err := systemdValue(status, "hwclock"); v != "local" || err != nil {
		t.Errorf("systemd hwclock = %q, %v", v, err)
	}
}

// TestTimezoneFlavor checks the choice of files and commands by family.
func TestTimezoneFlavor(t *testing.T) {
	deb := tzHost{v: shared.Verdict{"bin_cp": "/bin/cp", "bin_ln": "/bin/ln", "bin_dpkg-reconfigure": "/usr/sbin/dpkg-reconfigure"}}
	f, err := flavorFor(deb, true, "Asia/Tokyo")
	if err != nil || f.hwclock.path != "/etc/default/rcS" || f.name.path != "/etc/timezone" || len(f.update) != 2 ||
		f.update[0][2] != "/usr/share/zoneinfo/Asia/Tokyo" {
		t.Errorf("debian: %+v %v", f, err)
	}
	suse := tzHost{v: shared.Verdict{"bin_cp": "/bin/cp", "dist": "opensuse-leap", "f_clock": "ok"}, blobs: map[string]string{"clock": "TIMEZONE=\"UTC\"\n"}}
	f, err = flavorFor(suse, true, "Asia/Tokyo")
	if err != nil || f.name.format != "TIMEZONE=\"%s\"\n" || f.update[0][1] != "--remove-destination" {
		t.Errorf("suse: %+v %v", f, err)
	}
	rh := tzHost{v: shared.Verdict{"bin_cp": "/bin/cp", "dist": "rocky", "f_clock": "missing", "bin_tzdata-update": "/usr/sbin/tzdata-update"}}
	f, err = flavorFor(rh, true, "Asia/Tokyo")
	if err != nil || f.name.format != "ZONE=\"%s\"\n" || f.update[0][0] != "/usr/sbin/tzdata-update" || f.hwclock.path != "/etc/sysconfig/clock" {
		t.Errorf("redhat: %+v %v", f, err)
	}
	alpine := tzHost{v: shared.Verdict{"bin_cp": "/bin/cp", "dist": "alpine", "paths": "/bin"}}
	if _, err := flavorFor(alpine, false, ""); err == nil || err.Error() != `Failed to find required executable "setup-timezone" in paths: /bin` {
		t.Errorf("alpine without setup-timezone: %v", err)
	}
	if d := tzDistribution("rhel"); d != "Redhat" {
		t.Errorf("tzDistribution(rhel) = %s", d)
	}
	if s := tzRepr([]string{"hwclock", "name"}, map[string]string{"hwclock": "UTC", "name": "X"}); s != "{'hwclock': 'UTC', 'name': 'X'}" {
		t.Errorf("tzRepr = %s", s)
	}
	if m := tzAbortMsg("boom", []string{"a", "b"}); m != "Error message:\nboom\nOther message(s):\na\nb" {
		t.Errorf("tzAbortMsg = %q", m)
	}
}
