package expr

import (
	"testing"
	"time"
)

func TestStrptime(t *testing.T) {
	for _, c := range []struct{ s, format, want, err string }{
		// %S and %M take one digit as well as two, as Python's _strptime.
		{s: "202001011200.0", format: "%Y%m%d%H%M.%S", want: "2020-01-01 12:00:00"},
		{s: "202001011200.00", format: "%Y%m%d%H%M.%S", want: "2020-01-01 12:00:00"},
		{s: "2020-1-2 3:4:5", format: "%Y-%m-%d %H:%M:%S", want: "2020-01-02 03:04:05"},
		{s: "bad", format: "%Y%m%d%H%M.%S", err: "time data 'bad' does not match format '%Y%m%d%H%M.%S'"},
		{s: "202001011200.001", format: "%Y%m%d%H%M.%S", err: "unconverted data remains: 1"},
	} {
		got, err := Strptime(c.s, c.format)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("Strptime(%q, %q) error = %v, want %q", c.s, c.format, err, c.err)
			}
			continue
		}
		if err != nil || got.Format(time.DateTime) != c.want {
			t.Errorf("Strptime(%q, %q) = %v, %v; want %s", c.s, c.format, got, err, c.want)
		}
	}
}
