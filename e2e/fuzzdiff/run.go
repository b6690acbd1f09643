package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Side is what one tool did with a case: its exit code, output, the JSON
// its json stdout callback printed, and the end state of its work
// directory.
type Side struct {
	Tool     string
	Exit     int
	Stdout   string
	Stderr   string
	TimedOut bool
	JSON     map[string]any // nil when stdout was not JSON
	State    []string
	Dir      string // the side's directory, replaced by <DIR> in outputs
}

// Runner runs cases with both tools.
type Runner struct {
	// Ansible and Tender are the commands that run a playbook; the
	// inventory, the playbook and the extra arguments are appended.
	Ansible []string
	Tender  []string
	// Root is where each run's directories are made.
	Root string
	// Timeout bounds one tool's run of one case.
	Timeout time.Duration
}

// Run writes the case twice, once for each tool, runs both at once and
// reads what they left.
func (r *Runner) Run(ctx context.Context, c *Case, tag string) (a, t *Side, err error) {
	base := filepath.Join(r.Root, tag)
	if err := os.RemoveAll(base); err != nil {
		return nil, nil, err
	}
	type res struct {
		s   *Side
		err error
	}
	ch := make(chan res, 2)
	for _, side := range []struct {
		name string
		cmd  []string
	}{{"ansible", r.Ansible}, {"tender", r.Tender}} {
		go func() {
			// "a" and "t": both directories' paths have the same length,
			// so lengths computed from paths agree.
			s, err := r.runSide(ctx, c, filepath.Join(base, side.name[:1]), side.name, side.cmd)
			ch <- res{s, err}
		}()
	}
	for range 2 {
		x := <-ch
		if x.err != nil {
			err = x.err
			continue
		}
		if x.s.Tool == "ansible" {
			a = x.s
		} else {
			t = x.s
		}
	}
	return a, t, err
}

func (r *Runner) runSide(ctx context.Context, c *Case, dir, tool string, cmdline []string) (*Side, error) {
	work := filepath.Join(dir, "work")
	tmp := filepath.Join(dir, ".tmp")
	for _, d := range []string{work, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for name, text := range c.Render() {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	args := append(append([]string(nil), cmdline[1:]...), "-i", "inventory", "site.yml", "-e", "d="+work)
	args = append(args, c.Args...)
	cmd := exec.CommandContext(ctx, cmdline[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"ANSIBLE_STDOUT_CALLBACK=json",
		"ANSIBLE_NOCOLOR=1",
		"ANSIBLE_RETRY_FILES_ENABLED=0",
		"ANSIBLE_LOCALHOST_WARNING=0",
		"ANSIBLE_DEPRECATION_WARNINGS=0",
		// One fork: Ansible orders the files different hosts include
		// by which host's result reaches it first, which changes from
		// run to run with several forks; with one, results come in the
		// hosts' order, the order tender follows.
		"ANSIBLE_FORKS=1",
		"NO_COLOR=1",
	)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	s := &Side{Tool: tool, Dir: dir, Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		s.TimedOut = true
		s.Exit = -1
	case errors.As(err, &ee):
		s.Exit = ee.ExitCode()
	case err != nil:
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	var j map[string]any
	if json.Unmarshal(out.Bytes(), &j) == nil {
		s.JSON = j
	}
	s.State, err = dirState(work)
	return s, err
}

// dirState lists every file below root, one line each: relative path,
// type, permissions, and for a regular file its size and content (or the
// md5 of a long one), for a link its target.
func dirState(root string) ([]string, error) {
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %s %04o", rel, typeName(info.Mode()), info.Mode().Perm())
		switch {
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if len(data) <= 200 {
				line += fmt.Sprintf(" %d %q", len(data), data)
			} else {
				line += fmt.Sprintf(" %d md5:%x", len(data), md5.Sum(data))
			}
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + strings.ReplaceAll(target, root, "<WORK>")
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return lines, err
}

func typeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "link"
	case m.IsRegular():
		return "file"
	}
	return "other"
}
