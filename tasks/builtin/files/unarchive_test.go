package files

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

var archiveMembers = modtest.ArchiveMembers

func writeZip(t *testing.T, path string) {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range archiveMembers {
		h := &zip.FileHeader{Name: m.Name, Modified: time.Unix(1700000000, 0)}
		h.SetMode(os.FileMode(m.Mode))
		if m.Body == "" {
			h.SetMode(os.ModeDir | 0o755)
		}
		w, _ := zw.CreateHeader(h)
		w.Write([]byte(m.Body))
	}
	zw.Close()
	os.WriteFile(path, b.Bytes(), 0o644)
}

// TestUnarchive unpacks each archive format from the controller and from
// the host: first run changed, second run not, list_files, a mode for
// every member, exclude, check mode and a missing dest.
func TestUnarchive(t *testing.T) {
	files := t.TempDir()
	modtest.WriteTar(t, filepath.Join(files, "a.tar"))
	writeZip(t, filepath.Join(files, "a.zip"))
	gz, _ := os.ReadFile(filepath.Join(files, "a.tar"))
	var zb bytes.Buffer
	zwr := gzip.NewWriter(&zb)
	zwr.Write(gz)
	zwr.Close()
	os.WriteFile(filepath.Join(files, "a.tar.gz"), zb.Bytes(), 0o644)
	formats := map[string]string{"a.tar": "TarArchive", "a.tar.gz": "TgzArchive", "a.zip": "ZipArchive"}
	for tool, ext := range map[string]string{"bzip2": "bz2", "xz": "xz"} {
		if _, err := exec.LookPath(tool); err == nil {
			exec.Command("sh", "-c", tool+" -c <"+filepath.Join(files, "a.tar")+" >"+filepath.Join(files, "a.tar."+ext)).Run()
			// GNU tar reads any compression without a flag, so the
			// handler without one takes these first, as in Ansible.
			formats["a.tar."+ext] = "TarArchive"
		}
	}
	env, cc := modtest.TestEnv(t, files, nil)
	for name, handler := range formats {
		t.Run(name, func(t *testing.T) {
			dest := t.TempDir()
			args := tasks.Args{"src": name, "dest": dest, "list_files": true}
			runs, puts := cc.Runs, cc.Puts
			res := modtest.RunMod(t, env, "unarchive", args)
			if cc.Runs-runs != 2 || cc.Puts-puts != 1 {
				t.Errorf("%d round trips and %d Puts, want 2 and 1", cc.Runs-runs, cc.Puts-puts)
			}
			want := []any{"app/", "app/bin.sh", "app/conf.txt", "top.txt"}
			if res.Failed || !res.Changed || res.Data["handler"] != handler || !reflect.DeepEqual(res.Data["files"], want) {
				t.Fatalf("first run: %+v", res)
			}
			if modtest.ReadFile(t, filepath.Join(dest, "app/bin.sh")) != archiveMembers[1].Body {
				t.Error("content")
			}
			if er, _ := res.Data["extract_results"].(map[string]any); er["rc"] != 0 || len(er["cmd"].([]any)) == 0 {
				t.Errorf("extract_results: %v", res.Data["extract_results"])
			}
			if res = modtest.RunMod(t, env, "unarchive", args); res.Failed || res.Changed {
				t.Errorf("second run: %+v", res)
			}
			os.WriteFile(filepath.Join(dest, "app/conf.txt"), []byte("changed\n"), 0o644)
			if handler != "ZipArchive" {
				os.Chtimes(filepath.Join(dest, "app/conf.txt"), time.Now(), time.Now())
			}
			env.Check = true
			res = modtest.RunMod(t, env, "unarchive", args)
			env.Check = false
			if handler == "ZipArchive" && !res.Changed || handler != "ZipArchive" && !res.Skipped {
				t.Errorf("check mode: %+v", res)
			}
			if modtest.ReadFile(t, filepath.Join(dest, "app/conf.txt")) != "changed\n" {
				t.Error("check mode changed a file")
			}
			res = modtest.RunMod(t, env, "unarchive", tasks.Args{"src": filepath.Join(files, name), "dest": dest, "remote_src": true, "mode": "0640", "exclude": "top.txt"})
			if !res.Changed || modtest.ReadFile(t, filepath.Join(dest, "app/conf.txt")) != "k=v\n" {
				t.Errorf("remote_src repair: %+v", res)
			}
			if st, _ := os.Stat(filepath.Join(dest, "app/bin.sh")); st.Mode().Perm() != 0o640 {
				t.Errorf("mode %o", st.Mode().Perm())
			}
			if st, _ := os.Stat(filepath.Join(dest, "top.txt")); st.Mode().Perm() != 0o600 {
				t.Errorf("excluded member's mode changed: %o", st.Mode().Perm())
			}
			entries, _ := os.ReadDir(filepath.Dir(dest))
			for _, e := range entries {
				if filepath.Ext(e.Name()) != "" && e.Name()[0] == '.' {
					t.Errorf("upload left behind: %s", e.Name())
				}
			}
		})
	}
	res := modtest.RunMod(t, env, "unarchive", tasks.Args{"src": "a.tar", "dest": filepath.Join(files, "nope")})
	if !res.Failed || res.Msg != "dest '"+filepath.Join(files, "nope")+"' must be an existing dir" {
		t.Errorf("missing dest: %+v", res)
	}
}

// TestUnarchiveInclude: include takes only the members it names; for a
// zip they are globs matched as Python's fnmatch does (a * also matches
// a /); GNU tar matches its include names itself.
func TestUnarchiveInclude(t *testing.T) {
	files := t.TempDir()
	modtest.WriteTar(t, filepath.Join(files, "a.tar"))
	writeZip(t, filepath.Join(files, "a.zip"))
	env, _ := modtest.TestEnv(t, files, nil)
	for _, c := range []struct {
		name    string
		include []any
		want    []any
	}{
		{"a.zip", []any{"*.sh"}, []any{"app/bin.sh"}},
		{"a.zip", []any{"app/c*", "top.txt"}, []any{"app/conf.txt", "top.txt"}},
		{"a.tar", []any{"app/bin.sh"}, []any{"app/bin.sh"}},
	} {
		dest := t.TempDir()
		args := tasks.Args{"src": filepath.Join(files, c.name), "dest": dest, "remote_src": true, "include": c.include, "list_files": true}
		res := modtest.RunMod(t, env, "unarchive", args)
		if res.Failed || !res.Changed || !reflect.DeepEqual(res.Data["files"], c.want) {
			t.Fatalf("%s include %v: %+v", c.name, c.include, res)
		}
		var got []string
		filepath.Walk(dest, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				rel, _ := filepath.Rel(dest, p)
				got = append(got, rel)
			}
			return nil
		})
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s include %v unpacked %v, want only %v", c.name, c.include, got, c.want)
		}
		if res = modtest.RunMod(t, env, "unarchive", args); res.Failed || res.Changed {
			t.Errorf("%s include %v again: %+v", c.name, c.include, res)
		}
	}
}

// TestUnarchiveNoHandler: when no handler takes the archive, the message
// is Ansible's, with each handler's reason once (unzip's for a tar, and
// tar's: the same invalid extra option for each compression).
func TestUnarchiveNoHandler(t *testing.T) {
	files := t.TempDir()
	src := filepath.Join(files, "a.tar")
	modtest.WriteTar(t, src)
	env, _ := modtest.TestEnv(t, files, nil)
	tar, err := exec.LookPath("tar")
	if err != nil {
		t.Skip("no tar")
	}
	res := modtest.RunMod(t, env, "unarchive", tasks.Args{"src": src, "dest": t.TempDir(), "remote_src": true, "extra_opts": []any{"--bogus-opt"}})
	head := `Failed to find handler for "` + src + `". Make sure the required command to extract the file is installed.` + "\n"
	tarWhy := `Command "` + tar + `" could not handle archive: Unable to list files in the archive: ` + tar + `: unrecognized option '--bogus-opt'`
	if !res.Failed || !strings.HasPrefix(res.Msg, head) || strings.Count(res.Msg, tarWhy) != 1 || len(res.Data) != 0 {
		t.Fatalf("%+v", res)
	}
	if unzip, err := exec.LookPath("unzip"); err == nil && !strings.Contains(res.Msg, "\nCommand \""+unzip+"\" could not handle archive: ") && !strings.HasPrefix(res.Msg, head+"Command \""+unzip+"\" could not handle archive: ") {
		t.Errorf("unzip's reason missing: %q", res.Msg)
	}
}

// TestUnarchiveActionChecks: the checks Ansible's action makes before the
// module's spec, with its messages.
func TestUnarchiveActionChecks(t *testing.T) {
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	for _, c := range []struct {
		args tasks.Args
		msg  string
	}{
		{tasks.Args{"src": "a.tar"}, "src (or content) and dest are required"},
		{tasks.Args{"dest": "/tmp"}, "src (or content) and dest are required"},
		{tasks.Args{"src": "a.tar", "dest": "/tmp", "copy": false, "remote_src": true}, "parameters are mutually exclusive: ('copy', 'remote_src')"},
	} {
		if res := modtest.RunMod(t, env, "unarchive", c.args); !res.Failed || res.Msg != c.msg {
			t.Errorf("%v: %+v", c.args, res)
		}
	}
}
