//go:build e2e

package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// diffSide is one tool with its host in a differential case.
type diffSide struct {
	tool  string // ansible or tender
	h     host
	inv   string   // inventory: the host as "target" in group "targets"
	fetch string   // the controller directory given as fetch_dir
	known string   // tender's known_hosts
	env   []string // more environment for the tool
}

// diffResult is one run of one tool.
type diffResult struct {
	out   string
	code  int
	recap [7]int // the recap of host "target"
	took  time.Duration
}

// newDiffSide writes the inventory of one side: both call their host
// "target", so inventory_hostname, the outputs and the recaps compare.
func newDiffSide(t *testing.T, tool string, h host) *diffSide {
	t.Helper()
	s := &diffSide{tool: tool, h: h, fetch: t.TempDir()}
	dir := t.TempDir()
	s.inv, s.known = filepath.Join(dir, "hosts"), filepath.Join(dir, "known_hosts")
	extra := ""
	if tool == "ansible" {
		extra = "ansible_python_interpreter=/usr/bin/python3\n"
	}
	writeFile(t, s.inv, fmt.Sprintf("[targets]\ntarget ansible_host=127.0.0.1 ansible_port=%d\n\n[targets:vars]\nansible_user=deploy\nansible_ssh_private_key_file=%s\n%s",
		h.port, fl.key, extra))
	return s
}

// play runs the playbook with this side's tool, with fetch_dir set.
func (s *diffSide) play(pb string, args []string) diffResult {
	args = append([]string{"-i", s.inv, pb, "-e", "fetch_dir=" + s.fetch}, args...)
	var c *exec.Cmd
	if s.tool == "ansible" {
		c = exec.Command("ansible-playbook", args...)
		// A busy machine makes sudo slower than ansible-playbook's 10s
		// default timeout.
		c.Env = append(os.Environ(), "ANSIBLE_HOST_KEY_CHECKING=0", "ANSIBLE_NOCOLOR=1", "ANSIBLE_PIPELINING=1",
			"ANSIBLE_RETRY_FILES_ENABLED=0", "ANSIBLE_TIMEOUT=60")
	} else {
		c = exec.Command(fl.tender, append([]string{"play", "--host-key-checking", "accept-new", "--known-hosts", s.known}, args...)...)
		c.Env = append(os.Environ(), "NO_COLOR=1")
	}
	c.Env = append(c.Env, s.env...)
	t0 := time.Now()
	out, err := c.CombinedOutput()
	r := diffResult{out: string(out), took: time.Since(t0)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.code, r.out = -1, err.Error()
	}
	r.recap = recap(r.out)["target"]
	return r
}

// playBoth runs pb on both sides at the same time, with the same
// arguments.
func playBoth(sides [2]*diffSide, pb string, args []string) [2]diffResult {
	var res [2]diffResult
	var wg sync.WaitGroup
	for i, s := range sides {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = s.play(pb, args)
		}()
	}
	wg.Wait()
	return res
}

// sideBySide runs pb runs times with ansible-playbook on a and tender on
// tn (each host "target" in group "targets"), side by side, and fails the
// test on any difference in the recaps or the tasks' outcomes, on a failed
// run, and on a last run that changed something. after, when not nil, is
// called after each run (numbered from 1) that passed, for the tests that
// check the hosts' state themselves (systemd, rh, files).
func sideBySide(t *testing.T, pb string, a, tn host, runs int, after func(run int)) {
	t.Helper()
	sides := [2]*diffSide{newDiffSide(t, "ansible", a), newDiffSide(t, "tender", tn)}
	for run := 1; run <= runs; run++ {
		res := playBoth(sides, pb, nil)
		for _, d := range compareRuns(run, res, run == runs) {
			t.Errorf("%s: %s", d.what, d.line)
		}
		if res[0].code != 0 || res[1].code != 0 || t.Failed() {
			t.Fatalf("run %d: ansible-playbook exit %d, tender exit %d\n--- ansible-playbook\n%s\n--- tender\n%s",
				run, res[0].code, res[1].code, res[0].out, res[1].out)
		}
		t.Logf("run %d: recap %s; ansible-playbook %v, tender %v (side by side)", run, fmtRecap(res[1].recap),
			res[0].took.Round(time.Millisecond), res[1].took.Round(time.Millisecond))
		if after != nil {
			after(run)
		}
	}
}

// dump runs differential/dump.sh as root on the side's host, with the
// case's paths file on its input.
func (s *diffSide) dump(t *testing.T, paths []byte) string {
	t.Helper()
	script, err := os.ReadFile("differential/dump.sh")
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command("docker", "exec", "-i", s.h.container, "sh", "-c", string(script), "dump.sh")
	c.Stdin = bytes.NewReader(paths)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("dump.sh on the %s host: %v\n%s", s.tool, err, stderr.Bytes())
	}
	return string(out)
}

// packTarballs turns every directory NAME.tar.gz.d under dir into the
// tarball NAME.tar.gz beside it (and removes the directory), with fixed
// times and owners and the modes git keeps (0755 for directories and
// executables, 0644 for other files), so that cases keep their archives'
// contents as plain files.
func packTarballs(t *testing.T, dir string) {
	t.Helper()
	var srcs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasSuffix(p, ".tar.gz.d") {
			srcs = append(srcs, p)
			return filepath.SkipDir
		}
		return err
	})
	for _, src := range srcs {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		mt := time.Unix(1700000000, 0)
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == src {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			h := &tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, ModTime: mt, Uname: "root", Gname: "root", Format: tar.FormatGNU}
			var body []byte
			switch {
			case d.IsDir():
				h.Name, h.Typeflag, h.Mode = h.Name+"/", tar.TypeDir, 0o755
			default:
				if body, err = os.ReadFile(p); err != nil {
					return err
				}
				h.Typeflag, h.Size = tar.TypeReg, int64(len(body))
				if info.Mode()&0o100 != 0 {
					h.Mode = 0o755
				}
			}
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			_, err = tw.Write(body)
			return err
		})
		if err == nil {
			err = tw.Close()
		}
		if err == nil {
			err = gz.Close()
		}
		if err == nil {
			err = os.WriteFile(strings.TrimSuffix(src, ".d"), buf.Bytes(), 0o644)
		}
		if err == nil {
			err = os.RemoveAll(src)
		}
		if err != nil {
			t.Fatalf("packing %s: %v", src, err)
		}
	}
}

// galaxyInstall builds each collection source (a directory of the case
// holding galaxy.yml) into a tarball with ansible-galaxy and installs the
// tarballs, offline, into a new collections path, which it returns.
func galaxyInstall(t *testing.T, caseDir string, sources []string) string {
	t.Helper()
	built, installed := t.TempDir(), t.TempDir()
	for _, src := range sources {
		if out, err := exec.Command("ansible-galaxy", "collection", "build", "--output-path", built, filepath.Join(caseDir, src)).CombinedOutput(); err != nil {
			t.Fatalf("ansible-galaxy collection build %s: %v\n%s", src, err, out)
		}
	}
	tarballs, _ := filepath.Glob(filepath.Join(built, "*.tar.gz"))
	if len(tarballs) != len(sources) {
		t.Fatalf("ansible-galaxy built %v from %v", tarballs, sources)
	}
	args := append([]string{"collection", "install", "--offline", "-p", installed}, tarballs...)
	if out, err := exec.Command("ansible-galaxy", args...).CombinedOutput(); err != nil {
		t.Fatalf("ansible-galaxy collection install: %v\n%s", err, out)
	}
	return installed
}
