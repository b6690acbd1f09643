package shared

import (
	"context"
	_ "embed"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// Line-oriented files that a module rewrites as a whole after working out
// the new content in Go (authorized_keys, known_hosts, cron files): one
// round trip reads the file, a second writes it only when it changes. The
// write refuses to clobber a file that changed in between.

// ContentMark separates a read script's verdict from the file's bytes.
const ContentMark = "__T_CONTENT__"

// ReadLinesScript prints exists=1 and then the file $f after contentMark,
// or exists=0. It follows the verdict lines of whatever ran before it.
var ReadLinesScript = MarkVars + ReadLinesScriptBody

//go:embed read_lines.sh
var ReadLinesScriptBody string

// SplitContent splits a read script's output into its verdict and the
// file's content.
func SplitContent(stdout []byte) (Verdict, string) {
	s := string(stdout)
	head, content, found := strings.Cut(s, ContentMark+"\n")
	if !found {
		return ParseVerdict(stdout), ""
	}
	return ParseVerdict([]byte(head)), content
}

// writeCheckScript stops unless $f is still what the module read: $before
// is the md5 of that, empty when the file did not exist. A file changed
// in the meantime is left alone and reported. It sets the defaults of
// $mode and $owner for a new file first.
//
//go:embed write_check.sh
var writeCheckScript string

// writeTextScript replaces $f by the script's stdin through a temporary
// file beside it and a rename, keeping the old file's mode and owner (or
// $mode and $owner for a new file, when set). It runs after
// writeCheckScript and the module's prelude.
//
//go:embed write_text.sh
var writeTextScript string

// PathInfoScript prints the attributes of the path in $pi (if it exists)
// as pi_-prefixed _t_info lines, for pathInfo.
//
//go:embed path_info.sh
var PathInfoScript string

// PathInfo adds the attributes pathInfoScript or writeText printed to a
// result that names a path, as Ansible adds them to every module result
// with a "path" (uid, gid, owner, group, mode, size and state, the
// file's type, which replaces the module's own state).
func PathInfo(data map[string]any, v Verdict) { InfoData(data, v, "pi_") }

// WriteText writes content to path on the host unless the file changed
// since it read as before (existed false: the file did not exist). prelude runs
// after that check and before the write (it may create directories or set
// $mode and $owner). It returns
// the failure message, empty on success, and the verdict with the
// written file's attributes for pathInfo.
func WriteText(ctx context.Context, env *tasks.Env, path, content, before string, existed bool, prelude string) (string, Verdict, error) {
	sum := ""
	if existed {
		sum = Md5hex([]byte(before))
	}
	script := AttrFuncs + ShAssign([][2]string{{"f", path}, {"before", sum}}) + writeCheckScript + prelude + "\n" + writeTextScript
	res, err := Run(ctx, env, script, strings.NewReader(content))
	if err != nil {
		return "", nil, err
	}
	v := ParseVerdict(res.Stdout)
	if v["fail"] != "" {
		return v["fail"], v, nil
	}
	if res.ExitCode != 0 || v["written"] != "1" {
		return ScriptError(res), v, nil
	}
	return "", v, nil
}
