package commands

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

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

// findModuleUtils asks the Python that runs the controller's
// ansible-playbook (its shebang), else python3, where ansible.module_utils
// is.
func findModuleUtils() (string, error) {
	var pythons []string
	for _, tool := range []string{"ansible-playbook", "ansible"} {
		if p, err := exec.LookPath(tool); err == nil {
			if py := shebangPython(p); py != "" {
				pythons = append(pythons, py)
			}
		}
	}
	pythons = append(pythons, "python3", "/usr/bin/python3")
	for _, py := range pythons {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, err := exec.CommandContext(ctx, py, "-c", "import os, ansible.module_utils as m; print(os.path.dirname(m.__file__))").Output()
		cancel()
		if err != nil {
			continue
		}
		dir := strings.TrimSpace(string(out))
		if fi, err := os.Stat(filepath.Join(dir, "basic.py")); err == nil && fi.Mode().IsRegular() {
			return dir, nil
		}
	}
	return "", errors.New("no ansible-core found on the controller (none of ansible-playbook's Python, python3 or /usr/bin/python3 imports ansible.module_utils)")
}

// shebangPython returns the interpreter of a Python script's shebang, ""
// when path is not one (tender itself, linked as ansible-playbook).
func shebangPython(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	first, _, _ := strings.Cut(string(buf[:n]), "\n")
	s := reShebang.FindStringSubmatch(first)
	if s == nil {
		return ""
	}
	py := s[1]
	if filepath.Base(py) == "env" {
		py = s[2]
	}
	if !strings.HasPrefix(filepath.Base(py), "python") {
		return ""
	}
	return py
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

// put writes the zip into the host's ~/.ansible/tmp (home as the module
// script found it), atomically.
func (u *moduleUtils) put(ctx context.Context, env *tasks.Env, home string) error {
	if home == "" || !strings.HasPrefix(home, "/") {
		return fmt.Errorf("library: the host's home directory %q is not absolute", home)
	}
	return env.Conn.Put(ctx, strings.TrimSuffix(home, "/")+"/.ansible/tmp/"+u.name, bytes.NewReader(u.zip), 0o600)
}
