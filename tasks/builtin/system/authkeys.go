package system

import (
	"regexp"
	"sort"
	"strings"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// Parsing and writing authorized_keys files as ansible.posix's
// authorized_key module does, so that a file edited by either tool reads
// the same to the other: keys are told apart by their base64 blob, and a
// key is the same key when its type, options and comment match too.

// sshKeyTypes are the key types a line's key starts with.
var sshKeyTypes = map[string]bool{
	"sk-ecdsa-sha2-nistp256@openssh.com": true, "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com": true,
	"webauthn-sk-ecdsa-sha2-nistp256@openssh.com": true, "ecdsa-sha2-nistp256": true,
	"ecdsa-sha2-nistp256-cert-v01@openssh.com": true, "ecdsa-sha2-nistp384": true,
	"ecdsa-sha2-nistp384-cert-v01@openssh.com": true, "ecdsa-sha2-nistp521": true,
	"ecdsa-sha2-nistp521-cert-v01@openssh.com": true, "sk-ssh-ed25519@openssh.com": true,
	"sk-ssh-ed25519-cert-v01@openssh.com": true, "ssh-ed25519": true, "ssh-ed25519-cert-v01@openssh.com": true,
	"ssh-dss": true, "ssh-rsa": true, "ssh-xmss@openssh.com": true, "ssh-xmss-cert-v01@openssh.com": true,
	"rsa-sha2-256": true, "rsa-sha2-512": true, "ssh-rsa-cert-v01@openssh.com": true,
	"rsa-sha2-256-cert-v01@openssh.com": true, "rsa-sha2-512-cert-v01@openssh.com": true,
	"ssh-dss-cert-v01@openssh.com": true,
}

// keyOpt is one option of a key line (from="...", no-pty, ...); Value is
// nil for a flag.
type keyOpt struct {
	Name  string
	Value *string
}

// authKey is one line of an authorized_keys file. A line that is not a
// key (a comment, a blank or unparsable line) has Skipped set and Line
// holding it verbatim.
type authKey struct {
	Blob, Type, Comment string
	Opts                []keyOpt
	Skipped             bool
	Line                string
	Rank                int
}

var keyOptRe = regexp.MustCompile(`(?:[^,"']|"[^"]*"|'[^']*')+`)

// parseKeyOptions splits an options field at the commas outside quotes.
func parseKeyOptions(s string) []keyOpt {
	var out []keyOpt
	if s == "" {
		return out
	}
	idx := keyOptRe.FindAllStringIndex(s, -1)
	for i, m := range idx {
		if i > 0 {
			if sep := s[idx[i-1][1]:m[0]]; sep != "," {
				out = append(out, keyOpt{Name: sep})
			}
		}
		part := s[m[0]:m[1]]
		if k, v, ok := strings.Cut(part, "="); ok {
			out = append(out, keyOpt{Name: k, Value: &v})
		} else {
			out = append(out, keyOpt{Name: part})
		}
	}
	return out
}

// parseAuthKey parses one line; ok is false for a line that holds no key.
func parseAuthKey(raw string, rank int) (authKey, bool) {
	raw = strings.ReplaceAll(raw, `\#`, "#")
	parts := strings.FieldsFunc(raw, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' })
	if len(parts) > 0 && parts[0] == "#" {
		return authKey{Skipped: true, Line: raw, Blob: raw, Rank: rank}, true
	}
	for i, p := range parts {
		if !sshKeyTypes[p] || i+1 >= len(parts) {
			continue
		}
		return authKey{Type: p, Blob: parts[i+1], Opts: parseKeyOptions(strings.Join(parts[:i], " ")),
			Comment: strings.Join(parts[i+2:], " "), Rank: rank}, true
	}
	return authKey{}, false
}

// sameKey compares type, blob, options and comment, options as a mapping
// of each name to its values in order (as Ansible's keydict compares).
func sameKey(a, b authKey) bool {
	if a.Blob != b.Blob || a.Type != b.Type || a.Comment != b.Comment || a.Skipped != b.Skipped {
		return false
	}
	group := func(o []keyOpt) map[string][]string {
		m := map[string][]string{}
		for _, x := range o {
			v := "\x00flag"
			if x.Value != nil {
				v = *x.Value
			}
			m[x.Name] = append(m[x.Name], v)
		}
		return m
	}
	ga, gb := group(a.Opts), group(b.Opts)
	if len(ga) != len(gb) {
		return false
	}
	for k, va := range ga {
		vb, ok := gb[k]
		if !ok || strings.Join(va, "\x01") != strings.Join(vb, "\x01") {
			return false
		}
	}
	return true
}

// keyFile is a parsed authorized_keys file: entries by blob (or by the
// whole line for lines that are not keys), in the order first seen.
type keyFile struct {
	order []string
	byID  map[string]authKey
}

func parseKeyFile(content string) *keyFile {
	kf := &keyFile{byID: map[string]authKey{}}
	for i, line := range shared.SplitLinesKeep(content) {
		k, ok := parseAuthKey(line, i)
		if !ok {
			k = authKey{Skipped: true, Line: line, Blob: line, Rank: i}
		}
		kf.set(k)
	}
	return kf
}

func (kf *keyFile) set(k authKey) {
	if _, ok := kf.byID[k.Blob]; !ok {
		kf.order = append(kf.order, k.Blob)
	}
	kf.byID[k.Blob] = k
}

func (kf *keyFile) del(id string) {
	delete(kf.byID, id)
	for i, o := range kf.order {
		if o == id {
			kf.order = append(kf.order[:i], kf.order[i+1:]...)
			break
		}
	}
}

// String writes the file back: entries by rank (ties in the order first
// seen), each key as "options type blob comment".
func (kf *keyFile) String() string {
	entries := make([]authKey, 0, len(kf.order))
	for _, id := range kf.order {
		entries = append(entries, kf.byID[id])
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Rank < entries[j].Rank })
	var b strings.Builder
	for _, k := range entries {
		if k.Skipped {
			b.WriteString(k.Line)
			continue
		}
		if len(k.Opts) > 0 {
			for i, o := range k.Opts {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(o.Name)
				if o.Value != nil {
					b.WriteString("=" + *o.Value)
				}
			}
			b.WriteByte(' ')
		}
		b.WriteString(k.Type + " " + k.Blob + " " + k.Comment + "\n")
	}
	return b.String()
}
