package shared

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
)

// CopyJob is one file to put in place.
type CopyJob struct {
	Dest, Base    string
	Content       []byte // nil with remote_src or a large file
	Local         string // controller path of a large file
	Source        string // remote_src path
	Mode          string
	Sum, src      string
	Owner, Group  string
	Force, Backup bool
	Validate      string
	Remote        bool
	Check, Diff   bool
	mkdirs        bool   // create dest's missing parent directories (lineinfile's create)
	Se            string // AttrAssign's lines
	FromContent   bool   // from content: a diff's after side is labelled with the staging file
	LocalPath     string // the controller file of src, for diffs
	// guard refuses to replace dest unless its sha1 is still expect
	// (empty: dest did not exist), so that a module that read the file,
	// edited it in Go and writes it back never clobbers a change made in
	// between.
	Guard  bool
	Expect string
	Unsafe bool // unsafe_writes: write in place when the rename fails
	// UnsafeEnv: unsafe_writes was not given, so the task's environment
	// decides, as Ansible's fallback to ANSIBLE_UNSAFE_WRITES does.
	UnsafeEnv bool
	Follow    bool // a dest that is a link: write the file it points at
	// lfollow: remote_src with a directory copies what links point at
	// (local_follow given true; Ansible keeps links when it is not given)
	Lfollow bool
}

// Run copies one file: one round trip, or a probe, a Put and a second
// round trip for a large file that changed.
func (j CopyJob) Run(ctx context.Context, env *tasks.Env) (tasks.Result, error) {
	stdin := io.Reader(nil)
	source, probe := "-", ""
	switch {
	case j.Remote:
		source = j.Source
	case j.Local != "":
		probe = "1"
	default:
		// A small content travels in the script as $wantc alone.
		if n, _ := j.smallContent(); n == "" {
			stdin = bytes.NewReader(j.Content)
		}
	}
	run := RunLib
	if probe == "" && !j.Remote {
		// One script does it all: its exit status says whether it failed.
		// Its stdout is the verdict, and the old content only for a diff.
		run = RunFinalLib
		if !j.Diff {
			run = RunVerdictLib
		}
	}
	out, err := run(ctx, env, j.Lib(source, probe, ""), stdin)
	if err != nil {
		return tasks.Result{}, err
	}
	v := ParseVerdict(BeforeMarker(out.Stdout))
	if v["verdict"] == "upload" {
		f, err := env.Sandbox.Open(j.Local)
		if err != nil {
			return tasks.Result{Failed: true, Msg: err.Error(), Data: map[string]any{}}, nil
		}
		defer f.Close()
		up := path.Join(path.Dir(v["dest"]), ".tender-upload-"+RandHex())
		if err := env.Conn.Put(ctx, up, f, 0o600); err != nil {
			return tasks.Result{}, err
		}
		if out, err = RunLib(ctx, env, j.Lib(up, "", "1"), nil); err != nil {
			return tasks.Result{}, err
		}
	}
	return j.result(env, out)
}

// Script returns the shell script that places the file: source is where
// the content comes from, probe the checksum probe, moved the staged name.
func (j CopyJob) Script(source, probe, moved string) string {
	return ShFuncs + AttrFuncs + j.vars(source, probe, moved) + CopyScript
}

// Lib is Script in two parts (see Lib): CopyScript's pieces, and the
// job's values with the call.
func (j CopyJob) Lib(source, probe, moved string) Lib {
	// _t_cursum looks at dest first (with a small content in hand).
	return Lib{Pieces: copyLib, Script: j.vars(source, probe, moved) + "_t_copy_main\n", Stat: j.Dest}
}

// copyLib is CopyScript as Lib pieces.
var copyLib = []string{ShFuncs, AttrFuncs, remoteTreeFunc, PrepareFunc, MainFunc("_t_copy_main", copyScriptBody)}

func init() { RegisterLib(remoteTreeFunc, PrepareFunc) }

// vars sets the variables CopyScript reads.
func (j CopyJob) vars(source, probe, moved string) string {
	flag := BoolFlag
	var s strings.Builder
	for _, kv := range [][2]string{
		{"_t_check", flag(j.Check)}, {"dest", j.Dest}, {"base", j.Base}, {"want", j.Sum}, {"source", source},
		{"remote", flag(j.Remote)}, {"moved", moved}, {"probe", probe},
		{"force", flag(j.Force)}, {"backup", flag(j.Backup)}, {"mode", j.Mode},
		{"owner", j.Owner}, {"group", j.Group}, {"diff", flag(j.Diff)}, {"mkdirs", flag(j.mkdirs)},
		{"guard", flag(j.Guard)}, {"expect", j.Expect}, {"unsafe", j.unsafeFlag()},
		{"follow", flag(j.Follow)}, {"lfollow", flag(j.Lfollow)},
	} {
		val := Q(kv[1])
		if kv[0] == "dest" || (kv[0] == "source" && j.Remote) {
			val = ShPath(kv[1])
		}
		fmt.Fprintf(&s, "%s=%s\n", kv[0], val)
	}
	wantn, wantc := j.smallContent()
	fmt.Fprintf(&s, "wantn=%s\nwantc=%s\n", wantn, Q(wantc))
	s.WriteString(j.Se)
	if j.Validate != "" {
		// %s is the new file: the shell expands "$tmp" when it runs the
		// validator; the rest is the author's command line, as in Ansible.
		fmt.Fprintf(&s, "validate=%s\n", Q(strings.ReplaceAll(j.Validate, "%s", `"$tmp"`)))
	} else {
		s.WriteString("validate=\n")
	}
	return s.String()
}

// FileSHA1 returns the hex SHA-1 of the controller's file p, as Ansible's
// checksum, opened through the sandbox (nil: os.Open).
func FileSHA1(sandbox *sandbox.Policy, p string) (string, error) {
	f, err := sandbox.Open(p)
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

// RandHex returns 16 random hex digits, for temporary names.
func RandHex() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// BeforeMarker returns the verdict part of a script's output: what comes
// before the first "--name--" line.
func BeforeMarker(out []byte) []byte {
	if i := bytes.Index(out, []byte("\n--")); i >= 0 {
		return out[:i+1]
	}
	return out
}

// Section returns the text after the line "--name--" up to the line
// "--next--" (or the end when next is "").
func Section(out []byte, name, next string) (string, bool) {
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

// smallContentMax is the largest content the script is given as a shell
// value instead of on its stdin (no here-document to feed), to compare
// with the destination's bytes without a checksum program (copy.sh's
// _t_cursum) and to write from: the shell reads a file a byte at a
// time, which costs less than starting sha1sum up to about this size.
const smallContentMax = 1024

// smallContent is the content's length and the content for _t_cursum,
// or "" and "" when the script is not to compare it itself: too large,
// not in hand (a file of the controller's, remote_src), or holding a
// NUL byte, which no shell value can.
func (j CopyJob) smallContent() (n, content string) {
	if j.Remote || j.Local != "" || j.Content == nil || len(j.Content) > smallContentMax || bytes.IndexByte(j.Content, 0) >= 0 {
		return "", ""
	}
	return fmt.Sprint(len(j.Content)), string(j.Content)
}

// InlineMax is the largest content sent on stdin with the script itself:
// below it, sending the bytes costs less than a second round trip would on
// a typical link.
const InlineMax = 64 << 10

// unsafeFlag is the script's unsafe: "1", "env" (read
// ANSIBLE_UNSAFE_WRITES on the host) or "".
func (j CopyJob) unsafeFlag() string {
	switch {
	case j.Unsafe:
		return "1"
	case j.UnsafeEnv:
		return "env"
	}
	return ""
}
