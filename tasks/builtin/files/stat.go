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

// Run stats the path.
func (statModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := statArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	p := a.Str("path")
	sum := ""
	if a.Bool("get_checksum") {
		sum = a.Str("checksum_algorithm")
	}
	script := fmt.Sprintf("%sp=%s\nfollow=%s\nsum=%s\nmd5=%s\nmime=%s\nattrs=%s\n%s", shared.ShFuncs, shared.ShPath(p),
		shared.BoolFlag(a.Bool("follow")), shared.Q(sum), shared.BoolFlag(a.Bool("get_md5")), shared.BoolFlag(a.Bool("get_mime")),
		shared.BoolFlag(a.Bool("get_attributes")), statScript)
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	if out.ExitCode != 0 || (v["exists"] != "0" && v["rawmode"] == "") {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), Data: map[string]any{}}, nil
	}
	st := map[string]any{"exists": v["exists"] != "0"}
	res := tasks.Result{Data: map[string]any{"stat": st}}
	if v["exists"] == "0" {
		return res, nil
	}
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
	if c, ok := v["checksum"]; ok {
		st["checksum"] = c
	}
	if m, ok := v["md5"]; ok {
		st["md5"] = m
	}
	if a.Bool("get_mime") {
		st["mimetype"], st["charset"] = "unknown", "unknown"
		if mt, cs, ok := strings.Cut(v["mime"], ";"); ok {
			st["mimetype"] = strings.TrimSpace(mt)
			_, c, _ := strings.Cut(cs, "=")
			st["charset"] = strings.TrimSpace(c)
		}
	}
	if a.Bool("get_attributes") {
		st["version"], st["attributes"], st["attr_flags"] = nil, []any{}, ""
		if f := strings.Fields(v["lsattr"]); len(f) >= 3 {
			flags := strings.ReplaceAll(f[1], "-", "")
			st["version"], st["attr_flags"] = f[0], flags
			var names []any
			for _, c := range flags {
				if n, ok := fileAttributes[c]; ok {
					names = append(names, n)
				}
			}
			if names == nil {
				names = []any{}
			}
			st["attributes"] = names
		}
	}
	return res, nil
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
