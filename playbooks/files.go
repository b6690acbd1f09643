package playbooks

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/vault"
)

// source reads the files a playbook refers to: from the OS, or from an
// fs.FS (an embedded or unpacked agent bundle) given in Options.FS. On the
// OS, files are read and directories listed through the sandbox
// (Policy.ReadVaultFile, ReadDir: a nil one reads everything); whether a
// path exists is not asked. A vault-encrypted file is read within vault.MaxSize
// and refused at its first malformed byte (vault.ReadFile).
type source struct {
	fsys    fs.FS // nil: the OS
	sandbox *sandbox.Policy
}

// abs makes a path absolute on the OS; inside an fs.FS it is only cleaned
// (fs.FS paths are relative to the FS root).
func (s source) abs(p string) (string, error) {
	if s.fsys == nil {
		return filepath.Abs(p)
	}
	return s.name(p), nil
}

func (s source) name(p string) string {
	p = strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "/")
	if p == "" {
		return "."
	}
	return p
}

func (s source) readFile(p string) ([]byte, error) {
	if s.fsys == nil {
		return s.sandbox.ReadVaultFile(p)
	}
	return vault.ReadFS(s.fsys, s.name(p))
}

func (s source) stat(p string) (fs.FileInfo, error) {
	if s.fsys == nil {
		return os.Stat(p)
	}
	return fs.Stat(s.fsys, s.name(p))
}

func (s source) readDir(p string) ([]fs.DirEntry, error) {
	if s.fsys == nil {
		return s.sandbox.ReadDir(p)
	}
	return fs.ReadDir(s.fsys, s.name(p))
}

// isFile reports whether p exists and is a regular file (or a link to one).
func (s source) isFile(p string) bool {
	st, err := s.stat(p)
	return err == nil && !st.IsDir()
}

// isDir reports whether p exists and is a directory.
func (s source) isDir(p string) bool {
	st, err := s.stat(p)
	return err == nil && st.IsDir()
}

// importScope is the scope Load renders an import_playbook path in: the
// import's vars under the extra vars, lookups under the sandbox.
func (l *loader) importScope(imported map[string]any) *expr.Vars {
	v := expr.NewVars(imported, l.opts.Vars)
	if l.opts.Sandbox != nil {
		v.Env = &expr.Env{Sandbox: l.opts.Sandbox}
	}
	return v
}
