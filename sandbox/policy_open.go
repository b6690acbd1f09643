package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/testhook"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/vault"
)

// Open opens the controller file path for reading when the policy allows
// reading it, and makes sure the file opened is one it allows: path is
// resolved once, checked (CheckRead), and the resolved path is opened
// beneath the allowed directory that holds it, through an os.Root, which
// refuses any component that has become a symlink leading out since.
// Nothing another process swaps in between the check and the open
// reaches outside. A nil Policy opens path as os.Open does.
func (p *Policy) Open(path string) (*os.File, error) {
	if p == nil {
		return os.Open(path)
	}
	dirs := append(slices.Clip(p.Read), p.Write...)
	real, under, err := p.allowed("read", path, dirs)
	if err != nil {
		return nil, err
	}
	if h := testhook.BeforeOpen; h != nil {
		h(real)
	}
	root, err := os.OpenRoot(under)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	rel := "."
	if real != under {
		rel = strings.TrimPrefix(real[len(under):], "/")
	}
	f, err := root.Open(rel)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		// Something changed since the check: say where it leads now
		// when that is outside.
		if derr := p.check("read", path, dirs); derr != nil {
			return nil, derr
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// As os.Open says it: the path as given.
		err = &fs.PathError{Op: "open", Path: path, Err: pe.Err}
	}
	return nil, err
}

// ReadFile reads the controller file path as os.ReadFile does, through
// Open.
func (p *Policy) ReadFile(path string) ([]byte, error) {
	if p == nil {
		return os.ReadFile(path)
	}
	f, err := p.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		b.Grow(int(fi.Size()))
	}
	if _, err := f.WriteTo(&b); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// ReadVaultFile reads the controller file path, which may be
// vault-encrypted, as vault.ReadFile does (a vault-encrypted file within
// vault.MaxSize and refused at its first malformed byte, any other
// whole), through Open.
func (p *Policy) ReadVaultFile(path string) ([]byte, error) {
	if p == nil {
		return vault.ReadFile(path)
	}
	f, err := p.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return vault.ReadOpen(f, path)
}

// ReadDir lists the controller directory path as os.ReadDir does
// (sorted by name), through Open.
func (p *Policy) ReadDir(path string) ([]os.DirEntry, error) {
	if p == nil {
		return os.ReadDir(path)
	}
	f, err := p.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

var _ transport.Files = (*Policy)(nil)

// allowed resolves path and returns it with the resolved directory of
// dirs that holds it, or a *DeniedError.
func (p *Policy) allowed(access, path string, dirs []string) (real, under string, err error) {
	denied := &DeniedError{Policy: p.Name, Access: access, Target: path, Allowed: dirs}
	if real, err = realpath(path); err != nil {
		return "", "", fmt.Errorf("%w: %v", denied, err)
	}
	for _, d := range dirs {
		rd, err := realpath(d)
		if err != nil {
			continue
		}
		if rd == "/" || real == rd || strings.HasPrefix(real, rd+"/") {
			return real, rd, nil
		}
	}
	if abs, err := filepath.Abs(path); err != nil || abs != real {
		denied.Resolved = real
	}
	return "", "", denied
}
