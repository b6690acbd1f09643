package commands

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tender-sh/tender/internal/collection"
	"github.com/tender-sh/tender/internal/ctlpython"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
)

// moduleUtils is the ansible.module_utils package of the controller's
// ansible-core, packed into a zip that Python imports from
// (PYTHONPATH=zip), as Ansible packs it beside each module. It is made
// once per process and kept on each host under its content's hash, so a
// host receives it once.
type moduleUtils struct {
	zip  []byte
	name string // tender-module_utils-<hash>.zip
}

var (
	utilsOnce sync.Once
	utilsVal  *moduleUtils
	utilsErr  error
)

// maxUtilsSize bounds what is packed from the controller.
const maxUtilsSize = 64 << 20

// controllerModuleUtils finds and packs the controller's module_utils.
func controllerModuleUtils() (*moduleUtils, error) {
	utilsOnce.Do(func() {
		var dir string
		if dir, utilsErr = findModuleUtils(); utilsErr == nil {
			utilsVal, utilsErr = packModuleUtils(dir)
		}
	})
	return utilsVal, utilsErr
}

// findModuleUtils finds ansible.module_utils in the ansible-core of the
// controller's Python (ctlpython).
func findModuleUtils() (string, error) {
	info, err := ctlpython.Load()
	if err != nil {
		return "", fmt.Errorf("no ansible-core found on the controller: %w", err)
	}
	if info.AnsibleDir == "" {
		return "", fmt.Errorf("no ansible-core found on the controller (%s does not import ansible.module_utils)", info.Python)
	}
	dir := filepath.Join(info.AnsibleDir, "module_utils")
	if fi, err := os.Stat(filepath.Join(dir, "basic.py")); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("no ansible-core found on the controller (%s has no basic.py)", dir)
	}
	return dir, nil
}

// packModuleUtils zips dir's Python files as ansible/module_utils/…,
// with a package marker for ansible/, in a fixed order and with fixed
// times, so that the same module_utils make the same zip.
func packModuleUtils(dir string) (*moduleUtils, error) {
	var files []string
	total := int64(0)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".py") {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if total += fi.Size(); total > maxUtilsSize {
				return fmt.Errorf("%s holds more than %d bytes of Python", dir, maxUtilsSize)
			}
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	when := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(name string, body []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: when})
		if err != nil {
			return err
		}
		_, err = w.Write(body)
		return err
	}
	if err := add("ansible/__init__.py", []byte("# ansible-core's module_utils, packed by tender for a module\n")); err != nil {
		return nil, err
	}
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		body, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if err := add("ansible/module_utils/"+filepath.ToSlash(rel), body); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(buf.Bytes())
	return &moduleUtils{zip: buf.Bytes(), name: "tender-module_utils-" + hex.EncodeToString(sum[:8]) + ".zip"}, nil
}

// putZip writes a zip into the host's ~/.ansible/tmp (home as the module
// script found it), atomically.
func putZip(ctx context.Context, env *tasks.Env, home, name string, zip []byte) error {
	if home == "" || !strings.HasPrefix(home, "/") {
		return fmt.Errorf("library: the host's home directory %q is not absolute", home)
	}
	return env.Conn.Put(ctx, strings.TrimSuffix(home, "/")+"/.ansible/tmp/"+name, bytes.NewReader(zip), 0o600)
}

// sandboxFS reads controller files through the run's sandbox.
type sandboxFS struct{ p *sandbox.Policy }

func (s sandboxFS) ReadFile(p string) ([]byte, error) { return s.p.ReadFile(p) }
func (s sandboxFS) Stat(p string) (fs.FileInfo, error) {
	if err := s.p.CheckRead(p); err != nil {
		return nil, err
	}
	return os.Stat(p)
}
func (s sandboxFS) ReadDir(p string) ([]fs.DirEntry, error) { return s.p.ReadDir(p) }

var (
	packMu sync.Mutex
	packed = map[string]*collection.Packed{}
)

// packCollectionModule packs a collection's module with the collection
// code it imports, once per module and roots for the process.
func packCollectionModule(env *tasks.Env) (*collection.Packed, error) {
	key := env.ModuleFile + "\x00" + strings.Join(env.CollectionRoots, "\x00")
	packMu.Lock()
	defer packMu.Unlock()
	if p, ok := packed[key]; ok {
		return p, nil
	}
	p, err := collection.Pack(sandboxFS{env.Sandbox}, env.ModuleFile, env.CollectionRoots)
	if err != nil {
		return nil, err
	}
	packed[key] = p
	return p, nil
}
