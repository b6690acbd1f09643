package ssh

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"sync"

	"github.com/skeema/knownhosts"
	xssh "golang.org/x/crypto/ssh"
)

// knownHostsDB is the parsed known_hosts files, with the warnings about
// lines that were skipped.
type knownHostsDB struct {
	*knownhosts.HostKeyDB
	// warnings name each skipped line: file:line and why.
	warnings []string
	// names maps the cleaned copy of a file that had bad lines (what the
	// database read) back to the file itself, for messages.
	names map[string]string
}

// name is the file the database knows as f, as the user named it.
func (db *knownHostsDB) name(f string) string {
	if n, ok := db.names[f]; ok {
		return n
	}
	return f
}

// knownHostsCache holds parsed known_hosts databases, dropped whenever
// accept-new appends to a file.
type knownHostsCache struct {
	mu  sync.Mutex
	dbs map[string]*knownHostsDB
}

// db returns the database of h's known_hosts files (nil when none of
// them exists).
func (c *knownHostsCache) db(h *hop) (*knownHostsDB, error) {
	files := h.knownHosts
	key := strings.Join(files, "\x00")
	c.mu.Lock()
	defer c.mu.Unlock()
	if db, ok := c.dbs[key]; ok {
		return db, nil
	}
	db, err := readKnownHosts(files, h)
	if err != nil {
		return nil, err
	}
	if c.dbs == nil {
		c.dbs = map[string]*knownHostsDB{}
	}
	c.dbs[key] = db
	return db, nil
}

// readKnownHosts parses the files that exist (nil when none does), read
// as h reads its files. As OpenSSH does, a line that cannot be parsed is
// skipped rather than making the whole file unusable; each one is named
// in the warnings. A file read through the Target's Files is parsed from
// a private copy of what was read, never by its path again.
func readKnownHosts(files []string, h *hop) (*knownHostsDB, error) {
	db := &knownHostsDB{}
	var read []string
	defer func() {
		for tmp := range db.names {
			os.Remove(tmp)
		}
	}()
	for _, f := range files {
		data, err := h.readFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("known_hosts: %w", err)
		}
		clean, warnings := cleanKnownHosts(f, data)
		if warnings == nil && !h.vetted(f) {
			read = append(read, f)
			continue
		}
		db.warnings = append(db.warnings, warnings...)
		tmp, err := writeTemp(clean)
		if err != nil {
			return nil, fmt.Errorf("known_hosts: %s: %w", f, err)
		}
		if db.names == nil {
			db.names = map[string]string{}
		}
		db.names[tmp] = f
		read = append(read, tmp)
	}
	if len(read) == 0 {
		return nil, nil
	}
	hk, err := knownhosts.NewDB(read...)
	if err != nil {
		msg := err.Error()
		for tmp, f := range db.names {
			msg = strings.ReplaceAll(msg, tmp, f)
		}
		return nil, fmt.Errorf("known_hosts: %s", msg)
	}
	db.HostKeyDB = hk
	return db, nil
}

// writeTemp writes data to a new private temporary file.
func writeTemp(data []byte) (string, error) {
	f, err := os.CreateTemp("", "tender-known_hosts-")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// cleanKnownHosts returns data with every line that known_hosts parsing
// would refuse blanked out (so the others keep their line numbers), and a
// warning for each; warnings is nil when every line is good.
func cleanKnownHosts(file string, data []byte) (clean []byte, warnings []string) {
	var out bytes.Buffer
	for n, rest := 1, data; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		var err error
		if len(line) >= bufio.MaxScanTokenSize {
			err = fmt.Errorf("longer than %d bytes", bufio.MaxScanTokenSize-1)
		} else {
			err = checkKnownHostsLine(bytes.Trim(bytes.TrimSuffix(line, []byte("\r")), " \t"))
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s:%d: skipped a line that is not a known_hosts entry (%v), as OpenSSH does", file, n, err))
			line = nil
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	if warnings == nil {
		return data, nil
	}
	return out.Bytes(), warnings
}

// checkKnownHostsLine says why golang.org/x/crypto/ssh/knownhosts would
// refuse a (trimmed) line, which it does for the whole file: the same
// checks, in the same order.
func checkKnownHostsLine(line []byte) error {
	if len(line) == 0 || line[0] == '#' {
		return nil
	}
	marker := ""
	if w, next := nextWord(line); w == "@cert-authority" || w == "@revoked" {
		marker, line = w, next
	}
	host, rest := nextWord(line)
	if strings.HasPrefix(host, "@") {
		return fmt.Errorf("unexpected marker %q", host)
	}
	if len(rest) == 0 {
		return errors.New("no key type")
	}
	keyType, rest := nextWord(rest)
	if len(rest) == 0 {
		return errors.New("no key")
	}
	blob, _ := nextWord(rest)
	raw, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	key, err := xssh.ParsePublicKey(raw)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	if key.Type() != keyType {
		return fmt.Errorf("the key is %s, the line says %s", key.Type(), keyType)
	}
	if marker == "@revoked" {
		return nil
	}
	if host[0] == '|' {
		return checkHashedHost(host)
	}
	for _, p := range strings.Split(host, ",") {
		if p == "" {
			continue
		}
		p = strings.TrimPrefix(p, "!")
		if p == "" {
			return errors.New("negation without a host name")
		}
		if p[0] == '[' {
			if _, _, err := net.SplitHostPort(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkHashedHost checks a hashed host name: |1|salt|hash.
func checkHashedHost(host string) error {
	parts := strings.Split(host, "|")
	if len(parts) != 4 {
		return fmt.Errorf("hashed host has %d fields, want 3", len(parts)-1)
	}
	if parts[1] != "1" {
		return fmt.Errorf("hashed host: hash type %q, want 1", parts[1])
	}
	for _, p := range parts[2:] {
		if _, err := base64.StdEncoding.DecodeString(p); err != nil {
			return fmt.Errorf("hashed host: %w", err)
		}
	}
	return nil
}

// nextWord splits off the first word of line, as known_hosts parsing does.
func nextWord(line []byte) (string, []byte) {
	i := bytes.IndexAny(line, "\t ")
	if i < 0 {
		return string(line), nil
	}
	return string(line[:i]), bytes.Trim(line[i:], " \t")
}
