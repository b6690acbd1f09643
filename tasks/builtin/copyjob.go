package builtin

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// copyJob is one file to put in place.
type copyJob struct {
	dest, base    string
	content       []byte // nil with remote_src or a large file
	local         string // controller path of a large file
	source        string // remote_src path
	mode          string
	sum, src      string
	owner, group  string
	force, backup bool
	validate      string
	remote        bool
	check, diff   bool
	mkdirs        bool   // create dest's missing parent directories (lineinfile's create)
	se            string // seAssign's lines
	fromContent   bool   // from content: a diff's after side is labelled with the staging file
	localPath     string // the controller file of src, for diffs
	// guard refuses to replace dest unless its sha1 is still expect
	// (empty: dest did not exist), so that a module that read the file,
	// edited it in Go and writes it back never clobbers a change made in
	// between.
	guard  bool
	expect string
	unsafe bool // unsafe_writes: write in place when the rename fails
	follow bool // a dest that is a link: write the file it points at
	// lfollow: remote_src with a directory copies what links point at
	// (local_follow given true; Ansible keeps links when it is not given)
	lfollow bool
}

// run copies one file: one round trip, or a probe, a Put and a second
// round trip for a large file that changed.
func (j copyJob) run(ctx context.Context, env *tasks.Env) (tasks.Result, error) {
	stdin := io.Reader(nil)
	source, probe := "-", ""
	switch {
	case j.remote:
		source = j.source
	case j.local != "":
		probe = "1"
	default:
		stdin = bytes.NewReader(j.content)
	}
	out, err := run(ctx, env, j.script(source, probe, ""), stdin)
	if err != nil {
		return tasks.Result{}, err
	}
	v := parseVerdict(beforeMarker(out.Stdout))
	if v["verdict"] == "upload" {
		f, err := os.Open(j.local)
		if err != nil {
			return tasks.Result{Failed: true, Msg: err.Error(), Data: map[string]any{}}, nil
		}
		defer f.Close()
		up := path.Join(path.Dir(v["dest"]), ".tender-upload-"+randHex())
		if err := env.Conn.Put(ctx, up, f, 0o600); err != nil {
			return tasks.Result{}, err
		}
		if out, err = run(ctx, env, j.script(up, "", "1"), nil); err != nil {
			return tasks.Result{}, err
		}
	}
	return j.result(env, out)
}

func (j copyJob) script(source, probe, moved string) string {
	flag := func(b bool) string {
		if b {
			return "1"
		}
		return ""
	}
	var s strings.Builder
	s.WriteString(shFuncs + attrFuncs)
	for _, kv := range [][2]string{
		{"_t_check", flag(j.check)}, {"dest", j.dest}, {"base", j.base}, {"want", j.sum}, {"source", source},
		{"remote", flag(j.remote)}, {"moved", moved}, {"probe", probe},
		{"force", flag(j.force)}, {"backup", flag(j.backup)}, {"mode", j.mode},
		{"owner", j.owner}, {"group", j.group}, {"diff", flag(j.diff)}, {"mkdirs", flag(j.mkdirs)},
		{"guard", flag(j.guard)}, {"expect", j.expect}, {"unsafe", flag(j.unsafe)},
		{"follow", flag(j.follow)}, {"lfollow", flag(j.lfollow)},
	} {
		val := q(kv[1])
		if kv[0] == "dest" || (kv[0] == "source" && j.remote) {
			val = shPath(kv[1])
		}
		fmt.Fprintf(&s, "%s=%s\n", kv[0], val)
	}
	s.WriteString(j.se)
	if j.validate != "" {
		// %s is the new file: the shell expands "$tmp" when it runs the
		// validator; the rest is the author's command line, as in Ansible.
		fmt.Fprintf(&s, "validate=%s\n", q(strings.ReplaceAll(j.validate, "%s", `"$tmp"`)))
	} else {
		s.WriteString("validate=\n")
	}
	return s.String() + copyScript
}

func fileSHA1(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha1.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func randHex() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// beforeMarker returns the verdict part of a script's output: what comes
// before the first "--name--" line.
func beforeMarker(out []byte) []byte {
	if i := bytes.Index(out, []byte("\n--")); i >= 0 {
		return out[:i+1]
	}
	return out
}

// section returns the text after the line "--name--" up to the line
// "--next--" (or the end when next is "").
func section(out []byte, name, next string) (string, bool) {
	m := "\n--" + name + "--\n"
	i := bytes.Index(out, []byte(m))
	if i < 0 {
		return "", false
	}
	rest := out[i+len(m):]
	if next != "" {
		if k := bytes.Index(rest, []byte("\n--"+next+"--\n")); k >= 0 {
			rest = rest[:k+1]
		}
	}
	return string(rest), true
}

// inlineMax is the largest content sent on stdin with the script itself:
// below it, sending the bytes costs less than a second round trip would on
// a typical link.
const inlineMax = 64 << 10
