package files

import (
	"reflect"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestArchiveRoot checks arcroot: the common directory of the sources as
// the module's common_path computes it (a prefix cut back to a slash).
func TestArchiveRoot(t *testing.T) {
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{"/tmp/ax/src/foo"}, "/tmp/ax/src/"},
		{[]string{"/tmp/ax/src/bar", "/tmp/ax/src/foo", "/tmp/ax/nope"}, "/tmp/ax/"},
		{[]string{"/a/bc/x", "/a/bd/y"}, "/a/"},
		{[]string{"/x", "/y"}, "/"},
		{[]string{"/srv/a/tree/"}, "/srv/a/tree/"},
		{[]string{"rel"}, ""},
	} {
		if got := archiveRoot(c.paths); got != c.want {
			t.Errorf("archiveRoot(%q) = %q, want %q", c.paths, got, c.want)
		}
	}
}

// TestIsArchiveName checks the names that make an existing dest an
// "archive" when no source exists.
func TestIsArchiveName(t *testing.T) {
	for name, want := range map[string]bool{
		"/a/x.tgz": true, "/a/x.TAR.GZ": true, "/a/x.zip": true, "/a/x.tar.xz": true, "/a/x.tbz2": true,
		"/a/x.gz": false, "/a/x.bz2": false, "/a.tar/x": false,
	} {
		if got := isArchiveName(name); got != want {
			t.Errorf("isArchiveName(%q) = %v", name, got)
		}
	}
}

// archiveTestProbe is a probe of /s/tree (a directory with a file, a
// .log and a subdirectory), /s/one.txt and the missing /s/gone.
func archiveTestProbe() archiveProbe {
	return parseArchiveProbe(`p /s/tree
p /s/one.txt
p /s/gone
d /o/x.zip
e /s/tree
e /s/one.txt
e /s/gone
t d /s/tree
w d /s/tree/sub
w f /s/tree/a.txt
w f /s/tree/sub/b.log
t f /s/one.txt
t m /s/gone
pi_ftype=directory`)
}

// TestArchivePlan checks the decisions of the module's constructor and
// the members written: order, exclusion (tar by name, zip by path), and
// zip's directories left out of archived.
func TestArchivePlan(t *testing.T) {
	p := archiveTestProbe()
	pl, msg := planArchive(p, "zip", false)
	if msg != "" || !pl.mustArchive || pl.root != "/s/" || pl.dest != "/o/x.zip" {
		t.Fatalf("plan = %+v, %q", pl, msg)
	}
	if !reflect.DeepEqual(pl.missing, []string{"/s/gone"}) || !reflect.DeepEqual(pl.targets, []string{"/s/one.txt", "/s/tree"}) {
		t.Errorf("targets %q missing %q", pl.targets, pl.missing)
	}
	pl.members(p, []string{"*.log"}, false)
	if want := []string{"one.txt", "tree/sub", "tree/a.txt"}; !reflect.DeepEqual(pl.names, want) {
		t.Errorf("zip names %q, want %q", pl.names, want)
	}
	if want := []string{"/s/one.txt", "/s/tree/a.txt"}; !reflect.DeepEqual(pl.archived, want) {
		t.Errorf("zip archived %q, want %q", pl.archived, want)
	}
	if want := []string{"f:/s/one.txt", "d:/s/tree"}; !reflect.DeepEqual(pl.removalList(p), want) {
		t.Errorf("removals %q", pl.removalList(p))
	}
	tp, _ := planArchive(p, "gz", false)
	tp.members(p, []string{"tree/sub", "/s/tree/a.txt"}, false)
	if want := []string{"one.txt", "tree/a.txt", "tree/sub/b.log"}; !reflect.DeepEqual(tp.names, want) {
		t.Errorf("tar names %q, want %q", tp.names, want)
	}
}

// TestArchivePlanFailures checks the constructor's failures and the
// single-file case with its default dest.
func TestArchivePlanFailures(t *testing.T) {
	p := archiveProbe{expanded: []string{"/s/a"}, excluded: []string{"/s/a"}, kinds: map[string]byte{}}
	if _, msg := planArchive(p, "gz", false); msg != "Error, no source paths were found" {
		t.Errorf("all excluded: %q", msg)
	}
	p = archiveProbe{expanded: []string{"/s/d"}, kinds: map[string]byte{"/s/d": 'd'}}
	if _, msg := planArchive(p, "gz", false); msg != `Error, must specify "dest" when archiving multiple files or trees` {
		t.Errorf("dir without dest: %q", msg)
	}
	p = archiveProbe{expanded: []string{"/s/f"}, kinds: map[string]byte{"/s/f": 'f'}}
	pl, msg := planArchive(p, "bz2", false)
	if msg != "" || pl.mustArchive || pl.dest != "/s/f.bz2" {
		t.Errorf("single: %+v %q", pl, msg)
	}
	if pl, _ = planArchive(p, "gz", true); !pl.mustArchive {
		t.Error("force_archive ignored")
	}
	p = archiveProbe{expanded: []string{"/s/d"}, dest: "/s/d/x.tgz", kinds: map[string]byte{"/s/d": 'd'}}
	if pl, _ = planArchive(p, "gz", false); !pl.unsafeRemove(p) {
		t.Error("dest inside a source not refused with remove")
	}
	p.dest = "/s/dd.tgz"
	if pl, _ = planArchive(p, "gz", false); pl.unsafeRemove(p) {
		t.Error("dest beside a source refused")
	}
}

// TestArchiveFailure checks the failures the apply script reports.
func TestArchiveFailure(t *testing.T) {
	pl := archivePlan{format: "gz", paths: []string{"/s/f"}, dest: "/o/f.gz"}
	cases := []struct {
		out, msg string
	}{
		{"sigfail=tar is not a valid format", "tar is not a valid format"},
		{"wfail=No such file or directory", "Unable to write to compressed file: [Errno 2] No such file or directory: '/o/f.gz'"},
		{"rmfail=Permission denied", "Unable to remove source file: [Errno 13] Permission denied: b'/s/f'"},
		{"rmerr=/s/a\nrmerr=/s/b\nrmfailed=1", "Error deleting some source files: "},
		{"crash=init Is a directory", "MODULE FAILURE\nSee stdout/stderr for the exact error"},
	}
	for _, c := range cases {
		r, failed := archiveFailure(shared.ParseVerdict([]byte(c.out)), c.out, pl, archiveProbe{v: shared.Verdict{}})
		if !failed || r.Msg != c.msg {
			t.Errorf("%q: %v %q", c.out, failed, r.Msg)
		}
	}
	r, _ := archiveFailure(shared.ParseVerdict([]byte("rmerr=/s/a\nrmerr=/s/b\nrmfailed=1")), "rmerr=/s/a\nrmerr=/s/b\nrmfailed=1", pl, archiveProbe{})
	if !reflect.DeepEqual(r.Data["files"], []any{"/s/a", "/s/b"}) {
		t.Errorf("files %v", r.Data["files"])
	}
	r, _ = archiveFailure(shared.Verdict{"crash": "init Is a directory"}, "", pl, archiveProbe{})
	if want := "Traceback (most recent call last):\n  File \"ansible_collections/community/general/plugins/modules/archive.py\", in main\nIsADirectoryError: [Errno 21] Is a directory\n"; r.Data["module_stdout"] != want {
		t.Errorf("crash %q", r.Data["module_stdout"])
	}
	if _, failed := archiveFailure(shared.Verdict{"changed": "1"}, "", pl, archiveProbe{}); failed {
		t.Error("success taken for a failure")
	}
}
