package system

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// TestFstabEscape checks the escapes of a field: backslash first, so
// that the escapes' own backslashes are not escaped again.
func TestFstabEscape(t *testing.T) {
	for in, want := range map[string]string{
		"/mnt/a":       "/mnt/a",
		"/mnt/my data": `/mnt/my\040data`,
		`a\b&c`:        `a\134b\046c`,
	} {
		if got := fstabEscape(in); got != want {
			t.Errorf("fstabEscape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSetMount checks the fstab edit of present and mounted.
func TestSetMount(t *testing.T) {
	e := fstabEntry{src: "/dev/sdz1", name: "/mnt/data", fstype: "ext4", opts: "defaults", dump: "0", passno: "0", hasSrc: true}
	tests := []struct {
		name, in  string
		e         fstabEntry
		want, old string
		changed   bool
	}{
		{name: "append", in: "# c\n\n/dev/a / ext4 defaults 0 1\n", e: e,
			want: "# c\n\n/dev/a / ext4 defaults 0 1\n/dev/sdz1 /mnt/data ext4 defaults 0 0\n", changed: true},
		{name: "same", in: "/dev/sdz1  /mnt/data\text4 defaults 0 0\n", e: e,
			want: "/dev/sdz1  /mnt/data\text4 defaults 0 0\n"},
		{name: "four fields always rewritten", in: "/dev/sdz1 /mnt/data ext4 defaults\n", e: e,
			want: "/dev/sdz1 /mnt/data ext4 defaults 0 0\n", changed: true},
		{name: "opts changed, no final newline", in: "x /mnt/data ext4 ro 0 0", e: e,
			want: "/dev/sdz1 /mnt/data ext4 defaults 0 0\n", old: "x /mnt/data ext4 ro 0 0\n", changed: true},
		{name: "seven fields kept", in: "a /mnt/data ext4 ro 0 0 x\n", e: e,
			want: "a /mnt/data ext4 ro 0 0 x\n/dev/sdz1 /mnt/data ext4 defaults 0 0\n", changed: true},
		{name: "escaped", in: "", e: fstabEntry{src: "//h/s x", name: "/mnt/my data", fstype: "cifs", opts: "a&b", dump: "0", passno: "0"},
			want: "//h/s\\040x /mnt/my\\040data cifs a\\046b 0 0\n", changed: true},
		{name: "other swap", in: "/dev/a none swap sw 0 0\n", e: fstabEntry{src: "/dev/b", name: "none", fstype: "swap", opts: "sw", dump: "0", passno: "0", hasSrc: true},
			want: "/dev/a none swap sw 0 0\n/dev/b none swap sw 0 0\n", changed: true},
		{name: "crlf", in: "# c\r\n/dev/sdz1 /mnt/data ext4 defaults 0 0\r\n", e: e,
			want: "# c\n/dev/sdz1 /mnt/data ext4 defaults 0 0\n"},
	}
	for _, tt := range tests {
		got, changed, old := setMount(tt.in, tt.e)
		if got != tt.want || changed != tt.changed {
			t.Errorf("%s: got %q %v, want %q %v", tt.name, got, changed, tt.want, tt.changed)
		}
		if tt.old != "" && old != tt.old {
			t.Errorf("%s: old %q, want %q", tt.name, old, tt.old)
		}
	}
}

// TestUnsetMount checks absent's edit: only six-field lines match.
func TestUnsetMount(t *testing.T) {
	in := "# /mnt/x\n/dev/a /mnt/x ext4 defaults 0 0\n/dev/b /mnt/x ext4 defaults\n/dev/c /mnt/y ext4 defaults 0 0\n" +
		"/dev/s1 none swap sw 0 0\n/dev/s2 none swap sw 0 0"
	got, changed := unsetMount(in, fstabEntry{name: "/mnt/x"})
	want := "# /mnt/x\n/dev/b /mnt/x ext4 defaults\n/dev/c /mnt/y ext4 defaults 0 0\n/dev/s1 none swap sw 0 0\n/dev/s2 none swap sw 0 0"
	if got != want || !changed {
		t.Errorf("got %q %v", got, changed)
	}
	got, changed = unsetMount(in, fstabEntry{name: "none", src: "/dev/s2", hasSrc: true})
	if want := in[:len(in)-len("/dev/s2 none swap sw 0 0")]; got != want || !changed {
		t.Errorf("swap: got %q %v", got, changed)
	}
	if _, changed := unsetMount(in, fstabEntry{name: "/mnt/z"}); changed {
		t.Error("no line: changed")
	}
}

// TestBootOpts checks boot=false and its warnings.
func TestBootOpts(t *testing.T) {
	tests := []struct {
		opts             string
		boot             bool
		want, bootv, why string
	}{
		{"defaults", true, "defaults", "yes", ""},
		{"rw,nofail", false, "rw,nofail,noauto", "no", ""},
		{"defaults", false, "defaults", "no", "Ignore the 'boot' due to 'opts' contains 'defaults'."},
		{"noauto,ro", true, "noauto,ro", "yes", "Ignore the 'boot' due to 'opts' contains 'noauto'."},
		{"noauto", false, "noauto", "yes", "Ignore the 'boot' due to 'opts' contains 'noauto'."},
	}
	for _, tt := range tests {
		o, b, w := bootOpts(tt.opts, tt.boot)
		if o != tt.want || b != tt.bootv || w != tt.why {
			t.Errorf("bootOpts(%q, %v) = %q %q %q", tt.opts, tt.boot, o, b, w)
		}
	}
}

// TestParseMountinfo checks the sources of plain and bind mounts.
func TestParseMountinfo(t *testing.T) {
	mi := `69 40 0:39 / / rw,relatime - overlay overlay rw
42 69 0:35 / /tmp rw - tmpfs tmpfs rw
78 42 0:35 /aaa /tmp/bbb rw - tmpfs tmpfs rw
54 69 0:39 /srv/data /mnt/bind rw shared:1 - overlay overlay rw
140 136 253:2 /rootfs / rw - ext4 /dev/sdb2 rw
141 140 253:2 /rootfs/tmp/aaa /x rw - ext4 /dev/sdb2 rw
`
	got := parseMountinfo(mi)
	// "/" twice: the later line wins, as in the module's dict.
	want := map[string]string{"/": "/dev/sdb2", "/tmp": "/", "/tmp/bbb": "/tmp/aaa", "/mnt/bind": "/srv/data", "/x": "/tmp/aaa"}
	for dst, src := range want {
		if got[dst].src != src {
			t.Errorf("%s: src %q, want %q", dst, got[dst].src, src)
		}
	}
	if got["/mnt/bind"].fs != "overlay" {
		t.Errorf("fs %q", got["/mnt/bind"].fs)
	}
	tb := mountTable{linux: got}
	src := "/srv/data"
	if !tb.bindMounted("/mnt/bind", &src, nil) || !tb.bindMounted("/tmp", nil, nil) || tb.bindMounted("/nope", nil, nil) {
		t.Error("bindMounted")
	}
	other := "/srv/other"
	if tb.bindMounted("/mnt/bind", &other, nil) {
		t.Error("bindMounted with another source")
	}
}

// TestSameSource checks the ephemeral state's check of the mounted source.
func TestSameSource(t *testing.T) {
	tb := mountTable{linux: map[string]linuxMount{"/m": {src: "/"}}, mountV: []string{"tmpfs on /m type tmpfs (rw)"}}
	if same, empty := tb.sameSource(true, "tmpfs", "/m"); !same || empty {
		t.Error("tmpfs from mount -v")
	}
	if same, _ := tb.sameSource(true, "/dev/x", "/m"); same {
		t.Error("another source")
	}
	if same, _ := tb.sameSource(false, "tmpfs", "/n"); same {
		t.Error("not mounted")
	}
	if _, empty := (mountTable{linux: map[string]linuxMount{}}).sameSource(true, "tmpfs", "/m"); !empty {
		t.Error("empty listing")
	}
}

// TestMountPlan checks what each state decides from what the host told.
func TestMountPlan(t *testing.T) {
	e := fstabEntry{src: "tmpfs", name: "/m", fstype: "tmpfs", opts: "defaults", dump: "0", passno: "0", hasSrc: true}
	line := "tmpfs /m tmpfs defaults 0 0\n"
	tests := []struct {
		name, state, text string
		mounted, exists   bool
		check             bool
		changed           bool
		action            string
		write, mkdirs     bool
	}{
		{"mounted new", "mounted", "", false, false, false, true, "mount", true, true},
		{"mounted check", "mounted", "", false, false, true, true, "", false, false},
		{"mounted same", "mounted", line, true, true, false, false, "", false, false},
		{"mounted changed", "mounted", "tmpfs /m tmpfs ro 0 0\n", true, true, false, true, "remount", true, false},
		{"unmounted", "unmounted", "", true, true, false, true, "umount", false, false},
		{"unmounted not mounted", "unmounted", "", false, true, false, false, "", false, false},
		{"remounted", "remounted", "", false, false, false, true, "remount", false, false},
		{"remounted check", "remounted", "", false, false, true, true, "", false, false},
		{"absent", "absent", line, false, true, false, true, "absent", true, false},
		{"absent check", "absent", line, false, true, true, true, "", false, false},
		{"absent none", "absent", "", false, true, false, false, "", false, false},
		{"present", "present", "", false, false, false, true, "", true, false},
		{"ephemeral new", "ephemeral", "", false, false, false, true, "mount", false, true},
	}
	for _, tt := range tests {
		j := &mountJob{state: tt.state, e: e, oldText: tt.text, mounted: tt.mounted,
			table: mountTable{linux: map[string]linuxMount{}}, v: shared.Verdict{}}
		if tt.exists {
			j.v["exists"] = "1"
		}
		changed, msg := j.plan(tt.check)
		if msg != "" || changed != tt.changed || j.action != tt.action || j.write != tt.write || j.mkdirs != tt.mkdirs {
			t.Errorf("%s: changed %v action %q write %v mkdirs %v msg %q", tt.name, changed, j.action, j.write, j.mkdirs, msg)
		}
	}
	j := &mountJob{state: "ephemeral", e: e, mounted: true, v: shared.Verdict{},
		table: mountTable{linux: map[string]linuxMount{"/m": {src: "/"}}, mountV: []string{"other on /m type tmpfs"}}}
	if _, msg := j.plan(false); msg != mountEphemeralOther {
		t.Errorf("ephemeral on another source: %q", msg)
	}
}

// TestMountArgv checks the mount and remount command lines.
func TestMountArgv(t *testing.T) {
	e := fstabEntry{src: "/srv/d", name: "/m", fstype: "none", opts: "bind"}
	tests := []struct {
		state, fstab string
		opts         string
		remount      bool
		want         []string
	}{
		{"mounted", "/etc/fstab", "bind", false, []string{"/m"}},
		{"mounted", "/alt", "bind", true, []string{"-o", "remount", "-T", "/alt", "/m"}},
		{"remounted", "/etc/fstab", "ro", true, []string{"-o", "remount,ro", "/m"}},
		{"remounted", "/etc/fstab", "defaults", true, []string{"-o", "remount", "/m"}},
		{"ephemeral", "/alt", "bind", false, []string{"-t", "none", "-o", "bind", "/srv/d", "/m"}},
		{"ephemeral", "/etc/fstab", "defaults", true, []string{"-o", "remount", "-t", "none", "/srv/d", "/m"}},
	}
	for _, tt := range tests {
		e.opts = tt.opts
		j := &mountJob{state: tt.state, fstab: tt.fstab, e: e}
		if got := j.argv(tt.remount); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %v: %q, want %q", tt.state, tt.remount, got, tt.want)
		}
	}
}

// TestMountFailure checks the module's failure messages.
func TestMountFailure(t *testing.T) {
	ok := transport.Result{}
	tests := []struct {
		v    shared.Verdict
		want string
	}{
		{shared.Verdict{"rc": "0"}, ""},
		{shared.Verdict{"fail": "mount"}, "Error mounting /m: out err"},
		{shared.Verdict{"fail": "umount"}, "Error unmounting /m: out err"},
		{shared.Verdict{"fail": "remount"}, "Error remounting /m: out err"},
		{shared.Verdict{"fail": "remount_opts"}, mountRemountOpts},
		{shared.Verdict{"fail": "rmdir", "err": "Directory not empty"}, "Error rmdir /m: [Errno 39] Directory not empty: '/m'"},
		{shared.Verdict{"fail": "mkdir", "err": "Permission denied", "at": "/a"}, "Error making dir /m: [Errno 13] Permission denied: '/a'"},
	}
	for _, tt := range tests {
		if got := mountFailure(ok, tt.v, "/m", "out err"); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestMountRequiredIf checks the required_if rules' message.
func TestMountRequiredIf(t *testing.T) {
	for _, tt := range []struct {
		args tasks.Args
		want error
	}{
		{tasks.Args{"path": "/m", "state": "present", "src": "/d"}, errors.New("state is present but all of the following are missing: fstype")},
		{tasks.Args{"path": "/m", "state": "mounted"}, errors.New("state is mounted but all of the following are missing: src, fstype")},
		{tasks.Args{"path": "/m", "state": "unmounted"}, nil},
	} {
		a, err := mountArgs.Decode(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		got := mountRequiredIf(a)
		if (got == nil) != (tt.want == nil) || got != nil && got.Error() != tt.want.Error() {
			t.Errorf("%v: %v, want %v", tt.args, got, tt.want)
		}
	}
}
