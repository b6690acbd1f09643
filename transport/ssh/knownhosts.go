package ssh

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	xssh "golang.org/x/crypto/ssh"
)

// knownHostsDB is the parsed known_hosts files, with the warnings about
// lines that were skipped.
type knownHostsDB struct {
	idx *khIndex
	// warnings name each skipped line: file:line and why.
	warnings []string
}

// HostKeyCallback checks a host's key against the files.
func (db *knownHostsDB) HostKeyCallback() xssh.HostKeyCallback { return db.idx.callback() }

// HostKeyAlgorithms are the algorithms to offer the server at
// hostWithPort (see khIndex.hostKeyAlgorithms).
func (db *knownHostsDB) HostKeyAlgorithms(hostWithPort string) []string {
	return db.idx.hostKeyAlgorithms(hostWithPort)
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

// maxKnownHostsLine bounds a known_hosts line: a longer one is skipped.
const maxKnownHostsLine = 64 << 10

// readKnownHosts parses the files that exist (nil when none does), read
// as h reads its files, into one index. As OpenSSH does, a line that
// cannot be parsed is skipped rather than making the whole file
// unusable; each one is named in the warnings.
func readKnownHosts(files []string, h *hop) (*knownHostsDB, error) {
	db := &knownHostsDB{idx: newKHIndex()}
	found := false
	for _, f := range files {
		data, err := h.readFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("known_hosts: %w", err)
		}
		found = true
		db.warnings = append(db.warnings, db.idx.addFile(f, data)...)
	}
	if !found {
		return nil, nil
	}
	return db, nil
}

// addFile adds the entries of file's data, and returns a warning for
// each line it skipped.
func (x *khIndex) addFile(file string, data []byte) (warnings []string) {
	for n, rest := 1, data; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		var err error
		if len(line) > maxKnownHostsLine {
			err = fmt.Errorf("longer than %d bytes", maxKnownHostsLine)
		} else if line = bytes.Trim(bytes.TrimSuffix(line, []byte("\r")), " \t"); len(line) > 0 && line[0] != '#' {
			err = x.add(line, file, n)
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s:%d: skipped a line that is not a known_hosts entry (%v), as OpenSSH does", file, n, err))
		}
	}
	return warnings
}

// nextWord splits off the first word of line, as known_hosts parsing does.
func nextWord(line []byte) (string, []byte) {
	i := bytes.IndexAny(line, "\t ")
	if i < 0 {
		return string(line), nil
	}
	return string(line[:i]), bytes.Trim(line[i:], " \t")
}
