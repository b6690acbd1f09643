package config

import (
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pyini"
)

// iniSource reads a key of ansible.cfg: its raw text, found or not.
type iniSource interface {
	GetRaw(section, key string) (any, bool, error)
}

// systemFile is the last place Ansible looks for ansible.cfg (a variable
// for tests).
var systemFile = "/etc/ansible/ansible.cfg"

// findFile returns the ansible.cfg Ansible would read: $ANSIBLE_CONFIG (a
// file, or a directory holding ansible.cfg), ./ansible.cfg unless the
// working directory is world-writable, ~/.ansible.cfg, then
// /etc/ansible/ansible.cfg; the first that exists and can be read. "" is
// none. A file whose name does not end in .cfg or .ini is an error.
func (c *Config) findFile() (string, error) {
	var candidates []string
	fromEnv, envSet := c.getenv("ANSIBLE_CONFIG")
	if envSet {
		fromEnv = c.resolvePath(fromEnv, "")
		if st, err := os.Stat(fromEnv); err == nil && st.IsDir() {
			fromEnv = filepath.Join(fromEnv, "ansible.cfg")
		}
		candidates = append(candidates, fromEnv)
	}
	cwdCfg := filepath.Join(c.dir, "ansible.cfg")
	skippedCwd := false
	if st, err := os.Stat(c.dir); err == nil {
		if st.Mode().Perm()&0o002 != 0 {
			_, err := os.Stat(cwdCfg)
			skippedCwd = err == nil
		} else {
			candidates = append(candidates, cwdCfg)
		}
	}
	candidates = append(candidates, c.resolvePath("~/.ansible.cfg", ""), systemFile)
	found := ""
	for _, p := range candidates {
		if readable(p) {
			found = p
			break
		}
	}
	if skippedCwd && (!envSet || fromEnv != found) {
		c.warnings = append(c.warnings, fmt.Sprintf("Ansible is being run in a world writable directory (%s),"+
			" ignoring it as an ansible.cfg source. For more information see"+
			" https://docs.ansible.com/ansible/devel/reference_appendices/config.html#cfg-in-world-writable-dir", c.dir))
	}
	if found == "" {
		return "", nil
	}
	switch ext := filepath.Ext(found); ext {
	case ".ini", ".cfg":
	case ".yaml", ".yml":
		return "", fmt.Errorf("Unsupported configuration file type: yaml")
	default:
		return "", fmt.Errorf("Unsupported configuration file extension for %s: %s", found, ext)
	}
	return found, nil
}

// readable reports whether path exists and can be opened for reading.
func readable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// maxFileSize bounds ansible.cfg.
const maxFileSize = 16 << 20

// readFile reads ansible.cfg as Ansible does: UTF-8 text, parsed by
// Python's configparser with ; starting inline comments; values are read
// raw (no %(name)s interpolation).
func (c *Config) readFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Size() > maxFileSize {
		return fmt.Errorf("Error reading config file (%s): larger than %d bytes", path, maxFileSize)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("Error reading config file (%s): %w", path, err)
	}
	if !utf8.Valid(b) {
		return fmt.Errorf("Error reading config file(%s) because the config file was not utf8 encoded", path)
	}
	p := pyini.New(pyini.Options{InlineComments: true, Source: "<string>"})
	if err := p.Read(string(b)); err != nil {
		return fmt.Errorf("Error reading config file (%s): %s", path, err)
	}
	c.file, c.ini = path, p
	return nil
}
