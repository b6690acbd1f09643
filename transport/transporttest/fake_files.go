package transporttest

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// File is a file or directory on a fake host, as the host's store holds it.
// Owner and Group are the fake's bookkeeping: a file gets the login user
// (Target.User, or the user running the tests) when it is first written.
type File struct {
	Data  []byte
	Mode  fs.FileMode // permission bits, with fs.ModeDir for a directory
	Owner string
	Group string
}

// entry is a stored file and the stamp of its copy under Root when the
// two were last in step (zero when it lives only in memory).
type entry struct {
	File
	disk stamp
}

type stamp struct {
	size int64
	mod  time.Time
	mode fs.FileMode
}

func stampOf(fi fs.FileInfo) stamp {
	return stamp{size: fi.Size(), mod: fi.ModTime(), mode: fi.Mode()}
}

// File returns a copy of the file or directory at p, and whether it exists.
func (h *Host) File(p string) (File, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.files[path.Clean(p)]
	if !ok {
		return File{}, false
	}
	f := e.File
	f.Data = slices.Clone(f.Data)
	return f, true
}

// Paths lists every file and directory in the host's store, sorted.
func (h *Host) Paths() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Sorted(maps.Keys(h.files))
}

// WriteFile puts a file on the host without recording a call, making its
// missing parent directories (0755) first: for seeding a test's hosts.
// Under Root the file is also written to disk, where scripts see it;
// elsewhere it lives only in memory.
func (h *Host) WriteFile(p string, data []byte, mode fs.FileMode) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	p, err := absPath(p)
	if err != nil {
		return err
	}
	if err := h.mkdirAllLocked(path.Dir(p)); err != nil {
		return err
	}
	return h.putLocked(p, data, mode)
}

// Sync takes what is under Root on disk into the store: files a script
// made, changed or removed there. Shell calls it after every script; a
// custom Handler that changes files under Root behind the store's back
// calls it too.
func (h *Host) Sync() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.syncLocked()
}

func absPath(p string) (string, error) {
	if !path.IsAbs(p) {
		return "", fmt.Errorf("path %q is not absolute", p)
	}
	return path.Clean(p), nil
}

// inRoot reports whether p is Root or under it.
func (h *Host) inRoot(p string) bool {
	return p == h.root || strings.HasPrefix(p, h.root+"/")
}

func (h *Host) mkdirAllLocked(dir string) error {
	if dir == "/" {
		return nil
	}
	if e, ok := h.files[dir]; ok {
		if !e.Mode.IsDir() {
			return fmt.Errorf("mkdir %s: %w", dir, fs.ErrExist)
		}
		return nil
	}
	if err := h.mkdirAllLocked(path.Dir(dir)); err != nil {
		return err
	}
	e := &entry{File: File{Mode: fs.ModeDir | 0o755, Owner: h.user, Group: h.user}}
	if h.inRoot(dir) {
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, err := os.Lstat(dir)
		if err != nil {
			return err
		}
		e.disk = stampOf(fi)
	}
	h.files[dir] = e
	return nil
}

// putLocked stores data at p as Put does: p's directory must exist, and
// under Root the file is written to disk atomically first.
func (h *Host) putLocked(p string, data []byte, mode fs.FileMode) error {
	if dir := path.Dir(p); dir != "/" {
		if d, ok := h.files[dir]; !ok || !d.Mode.IsDir() {
			return fmt.Errorf("directory %s: %w", dir, fs.ErrNotExist)
		}
	}
	old, ok := h.files[p]
	if ok && old.Mode.IsDir() {
		return fmt.Errorf("%s is a directory", p)
	}
	e := &entry{File: File{Data: slices.Clone(data), Mode: mode.Perm(), Owner: h.user, Group: h.user}}
	if ok {
		e.Owner, e.Group = old.Owner, old.Group
	}
	if h.inRoot(p) {
		st, err := writeAtomic(p, data, mode.Perm())
		if err != nil {
			return err
		}
		e.disk = st
	}
	h.files[p] = e
	return nil
}

// writeAtomic writes data to p through a temporary file beside it, given
// its mode before the rename, and returns the new file's stamp.
func writeAtomic(p string, data []byte, mode fs.FileMode) (stamp, error) {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".fake-*")
	if err != nil {
		return stamp{}, err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return stamp{}, err
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return stamp{}, err
	}
	return stampOf(fi), nil
}

// syncLocked walks Root and brings the store in step with it. Files whose
// stamp did not change are not read again; symlinks and special files are
// not kept.
func (h *Host) syncLocked() {
	seen := map[string]bool{}
	_ = filepath.WalkDir(h.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // vanished or unreadable: what is left is still taken
		}
		fi, err := d.Info()
		if err != nil || (!fi.Mode().IsRegular() && !fi.IsDir()) {
			return nil
		}
		seen[p] = true
		st := stampOf(fi)
		e, ok := h.files[p]
		if ok && e.disk == st {
			return nil
		}
		var data []byte
		if fi.Mode().IsRegular() {
			if data, err = os.ReadFile(p); err != nil {
				return nil // keep what the store had
			}
		}
		if !ok {
			e = &entry{File: File{Owner: h.user, Group: h.user}}
		}
		e.Data, e.Mode, e.disk = data, fi.Mode().Perm()|fi.Mode()&fs.ModeDir, st
		h.files[p] = e
		return nil
	})
	for p := range h.files {
		if h.inRoot(p) && !seen[p] {
			delete(h.files, p)
		}
	}
}
