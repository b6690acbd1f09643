package files

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// statModule reports a path's status in one round trip, under "stat" with
// the keys of Ansible's stat module.
type statModule struct{}

var _ tasks.Module = (*statModule)(nil)

var statArgs = &tasks.Spec{
	Module: "stat",
	Params: []tasks.Param{
		{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"dest", "name"}},
		{Name: "follow", Kind: tasks.Bool, Default: false},
		{Name: "get_md5", Kind: tasks.Bool, Default: false},
		{Name: "get_checksum", Kind: tasks.Bool, Default: true},
		{Name: "get_mime", Kind: tasks.Bool, Default: true, Aliases: []string{"mime", "mime_type", "mime-type"}},
		{Name: "get_attributes", Kind: tasks.Bool, Default: true, Aliases: []string{"attr", "attributes"}},
		{Name: "checksum_algorithm", Default: "sha1", Aliases: []string{"checksum", "checksum_algo"},
			Choices: []string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512"}},
	},
}

// statScript prints the stat of $p (following links when $follow) as
// key=value lines, or exists=0.
//
//go:embed stat.sh
var statScript string

// statJob is one stat task: the path and what to read besides its stat.
type statJob struct {
	path, sum                string // sum: the checksum algorithm, "" for none
	follow, md5, mime, attrs bool
}

// Run stats the path: the job decoded, one round trip runs stat.sh, and
// its key=value lines become the result's "stat".
func (statModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := statArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := decodeStat(a)
	out, err := shared.RunVerdictLib(ctx, env, j.script(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	if out.ExitCode != 0 || (v["exists"] != "0" && v["rawmode"] == "") {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), Data: map[string]any{}}, nil
	}
	return tasks.Result{Data: map[string]any{"stat": j.result(v)}}, nil
}

// decodeStat builds the job the arguments ask for.
func decodeStat(a tasks.Values) statJob {
	j := statJob{path: a.Str("path"), follow: a.Bool("follow"), md5: a.Bool("get_md5"),
		mime: a.Bool("get_mime"), attrs: a.Bool("get_attributes")}
	if a.Bool("get_checksum") {
		j.sum = a.Str("checksum_algorithm")
	}
	return j
}

// script runs stat.sh with the job's variables set.
func (j statJob) script() shared.Lib {
	return shared.Lib{Pieces: statLib, Script: fmt.Sprintf("p=%s\nfollow=%s\nsum=%s\nmd5=%s\nmime=%s\nattrs=%s\n_t_stat_main\n", shared.ShPath(j.path),
		shared.BoolFlag(j.follow), shared.Q(j.sum), shared.BoolFlag(j.md5), shared.BoolFlag(j.mime),
		shared.BoolFlag(j.attrs))}
}

// statLib is stat.sh and what it needs, as Lib pieces.
var statLib = []string{shared.ShFuncs, shared.MainFunc("_t_stat_main", statScript)}

// result is the "stat" of the script's verdict v: exists alone for a
// missing path, else the path's stat, sums, mime type and attributes.
func (j statJob) result(v shared.Verdict) map[string]any {
	st := map[string]any{"exists": v["exists"] != "0"}
	if v["exists"] == "0" {
		return st
	}
	p := j.path
	if expanded, ok := v["path"]; ok {
		p = expanded // ~ and $VAR as the host expanded them
	}
	statInode(st, v, p)
	if c, ok := v["checksum"]; ok {
		st["checksum"] = c
	}
	if m, ok := v["md5"]; ok {
		st["md5"] = m
	}
	if j.mime {
		statMime(st, v)
	}
	if j.attrs {
		statAttributes(st, v)
	}
	return st
}

// statInode puts the stat of path p from the verdict v into st: type,
// mode and permission bits, ids, sizes, times, device and link.
func statInode(st map[string]any, v shared.Verdict, p string) {
	raw, _ := strconv.ParseUint(v["rawmode"], 16, 32)
	typ := raw & 0o170000
	st["path"] = p
	st["mode"] = fmt.Sprintf("%04o", raw&0o7777)
	for k, bit := range map[string]uint64{"isdir": 0o040000, "ischr": 0o020000, "isblk": 0o060000, "isreg": 0o100000, "isfifo": 0o010000, "islnk": 0o120000, "issock": 0o140000} {
		st[k] = typ == bit
	}
	for _, k := range []string{"uid", "gid", "size", "inode", "dev", "nlink", "blocks", "block_size"} {
		n, _ := strconv.ParseInt(v[k], 10, 64)
		st[k] = n
	}
	for _, k := range []string{"atime", "mtime", "ctime"} {
		st[k] = statTime(v[k])
	}
	major, _ := strconv.ParseUint(v["major"], 16, 32)
	minor, _ := strconv.ParseUint(v["minor"], 16, 32)
	st["device_type"] = int64(minor&0xff | major<<8 | (minor&^0xff)<<12)
	st["pw_name"], st["gr_name"] = shared.NameOr(v["pw_name"], v["uid"]), shared.NameOr(v["gr_name"], v["gid"])
	bits := []string{"xoth", "woth", "roth", "xgrp", "wgrp", "rgrp", "xusr", "wusr", "rusr"}
	for i, k := range bits {
		st[k] = raw&(1<<i) != 0
	}
	st["isuid"], st["isgid"] = raw&0o4000 != 0, raw&0o2000 != 0
	st["readable"], st["writeable"], st["executable"] = v["readable"] == "1", v["writeable"] == "1", v["executable"] == "1"
	if st["islnk"] == true {
		st["lnk_target"], st["lnk_source"] = v["lnk_target"], v["lnk_source"]
	}
}

// statMime puts the mime type and charset of the verdict v (file's
// "type; charset=..."), or unknown, into st.
func statMime(st map[string]any, v shared.Verdict) {
	st["mimetype"], st["charset"] = "unknown", "unknown"
	if mt, cs, ok := strings.Cut(v["mime"], ";"); ok {
		st["mimetype"] = strings.TrimSpace(mt)
		_, c, _ := strings.Cut(cs, "=")
		st["charset"] = strings.TrimSpace(c)
	}
}

// statAttributes puts lsattr's version, flags and the flags' names from
// the verdict v into st (none when lsattr printed nothing usable).
func statAttributes(st map[string]any, v shared.Verdict) {
	st["version"], st["attributes"], st["attr_flags"] = nil, []any{}, ""
	f := strings.Fields(v["lsattr"])
	if len(f) < 3 {
		return
	}
	flags := strings.ReplaceAll(f[1], "-", "")
	st["version"], st["attr_flags"] = f[0], flags
	names := []any{}
	for _, c := range flags {
		if n, ok := fileAttributes[c]; ok {
			names = append(names, n)
		}
	}
	st["attributes"] = names
}

// fileAttributes names lsattr's letters as Ansible does.
var fileAttributes = map[rune]string{
	'A': "noatime", 'a': "append", 'c': "compressed", 'C': "nocow", 'd': "nodump", 'D': "dirsync",
	'e': "extents", 'E': "encrypted", 'h': "blocksize", 'i': "immutable", 'I': "indexed",
	'j': "journalled", 'N': "inline", 's': "zero", 'S': "synchronous", 't': "notail",
	'T': "blockroot", 'u': "undelete", 'X': "compressedraw", 'Z': "compresseddirty",
}

// statTime parses stat's %x ("2026-11-22 13:04:37.812432214 +0000",
// fractions optional) into seconds since the epoch.
func statTime(s string) float64 {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return float64(t.UnixNano()) / 1e9
		}
	}
	return 0
}

func (statModule) Spec() *tasks.Spec { return statArgs }
