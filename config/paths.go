package config

import (
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
)

// resolvePath is Ansible's resolve_path: {{CWD}} is the working directory,
// $VAR and ${VAR} are expanded from the environment (unset ones stay), a
// leading ~ or ~user is the home directory, a relative path is joined to
// base (the working directory when empty), and the result is normalized
// as Python's os.path.normpath does. Links are not followed.
func (c *Config) resolvePath(p, base string) string {
	p = strings.ReplaceAll(p, "{{CWD}}", c.dir)
	p = c.expandUser(c.expandVars(p))
	if base == "" {
		base = c.dir
	}
	if !strings.HasPrefix(p, "/") {
		p = base + "/" + p
	}
	return normpath(p)
}

var varRef = regexp.MustCompile(`\$([A-Za-z0-9_]+|\{[^}]*\})`)

// expandVars is Python's posixpath.expandvars.
func (c *Config) expandVars(p string) string {
	if !strings.Contains(p, "$") {
		return p
	}
	return varRef.ReplaceAllStringFunc(p, func(ref string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(ref[1:], "{"), "}")
		if v, ok := c.getenv(name); ok {
			return v
		}
		return ref
	})
}

// expandUser is Python's posixpath.expanduser.
func (c *Config) expandUser(p string) string {
	if !strings.HasPrefix(p, "~") {
		return p
	}
	i := strings.IndexByte(p, '/')
	if i < 0 {
		i = len(p)
	}
	var home string
	if i == 1 {
		home = c.home()
	} else {
		u, err := user.Lookup(p[1:i])
		if err != nil {
			return p
		}
		home = u.HomeDir
	}
	home = strings.TrimRight(home, "/")
	if out := home + p[i:]; out != "" {
		return out
	}
	return "/"
}

// home is $HOME, else the user's home directory from the password
// database.
func (c *Config) home() string {
	if h, ok := c.getenv("HOME"); ok {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return "~"
}

// normpath is Python's posixpath.normpath: filepath.Clean, except that a
// path starting with exactly two slashes keeps them.
func normpath(p string) string {
	clean := filepath.Clean(p)
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
		return "/" + clean
	}
	return clean
}
