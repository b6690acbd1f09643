package files

import (
	"context"
	_ "embed"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/internal/fnmatch"
	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// findModule lists the files under directories that match patterns, age,
// size, type and content, as Ansible's find. One round trip lists every
// entry with its stat (find -exec stat); the filters run in Go; contains
// and get_checksum cost one more round trip for the candidates only.
type findModule struct{}

var _ tasks.Module = (*findModule)(nil)

var findArgs = &tasks.Spec{
	Module: "find",
	Params: []tasks.Param{
		{Name: "paths", Kind: tasks.List, Required: true, Aliases: []string{"name", "path"}},
		{Name: "patterns", Kind: tasks.List, Default: []any{}, Aliases: []string{"pattern"}},
		{Name: "excludes", Kind: tasks.List, Aliases: []string{"exclude"}},
		{Name: "contains"},
		{Name: "read_whole_file", Kind: tasks.Bool, Default: false},
		{Name: "file_type", Default: "file", Choices: []string{"any", "directory", "file", "link"}},
		{Name: "age"},
		{Name: "age_stamp", Default: "mtime", Choices: []string{"atime", "ctime", "mtime"}},
		{Name: "size"},
		{Name: "recurse", Kind: tasks.Bool, Default: false},
		{Name: "hidden", Kind: tasks.Bool, Default: false},
		{Name: "follow", Kind: tasks.Bool, Default: false},
		{Name: "get_checksum", Kind: tasks.Bool, Default: false},
		{Name: "use_regex", Kind: tasks.Bool, Default: false},
		{Name: "depth", Kind: tasks.Int},
	},
}

// findScript prints, for each directory $1 .. $n, a "--path--" line and
// then either "notdir" or one stat line per entry below it, in the
// directories' own order, then a dirlink= line for each symbolic link to a
// directory (os.walk counts those among the directories).
//
//go:embed find.sh
var findScript string

// findReadScript reads the checksums and contents the checksum and
// contains filters need (find_read.sh).
//
//go:embed find_read.sh
var findReadScript string

// findEntry is one entry a walk saw.
type findEntry struct {
	path, name, parent string
	raw                uint64
	f                  []string
	depth              int
	dirLink            bool // a symbolic link to a directory
}

// findOpts are a find task's filters.
type findOpts struct {
	patterns, excludes []string
	re, exRe           []*pyre.Regexp
	useRegex, hidden   bool
	fileType, stamp    string
	age, size          *int64
	depth              int
	contains           *pyre.Regexp // nil: no contains filter
}

var (
	ageRe  = regexp.MustCompile(`^(-?\d+)(s|m|h|d|w)?$`)
	sizeRe = regexp.MustCompile(`^(-?\d+)(b|k|m|g|t)?$`)
)

// Run finds: the filters decoded, one round trip walks the paths, the
// entries are matched in Go, and one more reads checksums and contents
// when the filters need them.
func (findModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := findArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	o, fail := decodeFind(a)
	if fail != nil {
		return *fail, nil
	}
	paths := a.Strings("paths")
	out, err := shared.Run(ctx, env, findWalkScript(a, paths), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	blocks := strings.Split(string(out.Stdout), "--path--\n")
	if len(blocks) != len(paths)+1 {
		return shared.FailWith(shared.ScriptError(out), nil)
	}
	w := o.collect(paths, blocks[1:], time.Now())
	if w.err != nil {
		return shared.FailWith(w.err.Error(), nil)
	}
	files := w.files
	if (o.contains != nil && o.fileType == "file") || a.Bool("get_checksum") {
		if files, err = findContents(ctx, env, files, w.candidates, o.contains, !a.Bool("read_whole_file"), a.Bool("get_checksum"), o.fileType == "file"); err != nil {
			return tasks.Result{}, err
		}
	}
	msg := "All paths examined"
	if len(w.warnings) > 0 {
		msg = "Not all paths examined, check warnings for details"
	}
	return tasks.Result{Msg: msg, Warnings: w.warnings, Data: map[string]any{
		"files": files, "matched": len(files), "examined": w.looked, "skipped_paths": w.skipped, "msg": msg,
	}}, nil
}

// decodeFind builds the filters the arguments ask for, or the failure
// find gives for a pattern, age or size it cannot read.
func decodeFind(a tasks.Values) (findOpts, *tasks.Result) {
	failed := func(msg string, data map[string]any) (findOpts, *tasks.Result) {
		r, _ := shared.FailWith(msg, data)
		return findOpts{}, &r
	}
	o := findOpts{patterns: a.Strings("patterns"), excludes: a.Strings("excludes"), useRegex: a.Bool("use_regex"),
		hidden: a.Bool("hidden"), fileType: a.Str("file_type"), stamp: a.Str("age_stamp"), depth: a.Int("depth")}
	if len(o.patterns) == 0 {
		o.patterns = []string{"*"}
		if o.useRegex {
			o.patterns = []string{".*"}
		}
	}
	if o.useRegex {
		for _, l := range []struct {
			src []string
			dst *[]*pyre.Regexp
		}{{o.patterns, &o.re}, {o.excludes, &o.exRe}} {
			for _, p := range l.src {
				re, err := pyre.Compile(p, pyre.Options{})
				if err != nil {
					return failed(err.Error(), nil)
				}
				*l.dst = append(*l.dst, re)
			}
		}
	}
	var ok bool
	if o.age, ok = findAmount(a, "age", ageRe, map[string]int64{"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}); !ok {
		return failed("failed to process age", map[string]any{"age": a.Str("age")})
	}
	if o.size, ok = findAmount(a, "size", sizeRe, map[string]int64{"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}); !ok {
		return failed("failed to process size", map[string]any{"size": a.Str("size")})
	}
	if a.Has("contains") {
		var err error
		if o.contains, err = pyre.Compile(a.Str("contains"), pyre.Options{}); err != nil {
			return failed(err.Error(), nil)
		}
	}
	return o, nil
}

// findAmount reads the age or size argument key (a number with a unit
// suffix, matched by re, scaled by units): nil when it is not given,
// false when it cannot be read.
func findAmount(a tasks.Values, key string, re *regexp.Regexp, units map[string]int64) (*int64, bool) {
	if !a.Has(key) {
		return nil, true
	}
	m := re.FindStringSubmatch(strings.ToLower(a.Str(key)))
	if m == nil {
		return nil, false
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	n *= units[m[2]]
	return &n, true
}

// findWalkScript is the script that walks paths (find.sh), as deep as
// recurse and depth allow.
func findWalkScript(a tasks.Values, paths []string) string {
	maxdepth := ""
	switch {
	case !a.Bool("recurse"):
		maxdepth = "-maxdepth 1"
	case a.Int("depth") > 0:
		maxdepth = fmt.Sprintf("-maxdepth %d", a.Int("depth")+1)
	}
	words := make([]string, len(paths))
	for i, p := range paths {
		words[i] = shared.ShPath(p)
	}
	return shared.SetWords(words) + shared.ShAssign([][2]string{{"L", map[bool]string{true: "-L"}[a.Bool("follow")]},
		{"maxdepth", maxdepth}}) + findScript
}

// findWalk is what the walk of every path found: the matching entries,
// the regular files among them (candidates for contains and checksums),
// the paths skipped and why, and how many entries were looked at.
type findWalk struct {
	files      []any
	candidates []map[string]any
	skipped    map[string]any
	warnings   []string
	looked     int
	err        error // a pattern's search past its bounds
}

// collect matches the entries of each path's walk (blocks, one a path)
// against the filters, as of now.
func (o findOpts) collect(paths, blocks []string, now time.Time) findWalk {
	w := findWalk{files: []any{}, skipped: map[string]any{}}
	for i, p := range paths {
		if strings.TrimSpace(blocks[i]) == "notdir" {
			w.skipped[p] = fmt.Sprintf("'%s' is not a directory", p)
			w.warnings = append(w.warnings, fmt.Sprintf("Skipped '%s' path due to this access issue: '%s' is not a directory\n", p, p))
			continue
		}
		entries := walkOrder(parseFindEntries(blocks[i], p), path.Clean(p))
		w.looked += len(entries)
		for _, e := range entries {
			if (o.depth > 0 && e.depth > o.depth) || (!o.hidden && strings.HasPrefix(e.name, ".")) {
				continue
			}
			r, err := o.match(e, now)
			if err != nil {
				w.err = err
				return w
			}
			if r != nil {
				w.files = append(w.files, r)
				if r["isreg"] == true {
					w.candidates = append(w.candidates, r)
				}
			}
		}
	}
	return w
}

// parseFindEntries reads the stat lines of one directory's walk.
func parseFindEntries(block, top string) []findEntry {
	top = strings.TrimRight(top, "/")
	var out []findEntry
	dirLinks := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if d, ok := strings.CutPrefix(l, "dirlink="); ok {
			dirLinks[path.Clean(d)] = true
			continue
		}
		f := strings.SplitN(l, "|", 13)
		if len(f) != 13 {
			continue
		}
		raw, _ := strconv.ParseUint(f[0], 16, 32)
		p := path.Clean(f[12])
		rel := strings.TrimPrefix(p, top+"/")
		out = append(out, findEntry{path: p, name: path.Base(p), parent: path.Dir(p), raw: raw, f: f, depth: strings.Count(rel, "/") + 1})
	}
	for i := range out {
		out[i].dirLink = dirLinks[out[i].path]
	}
	return out
}

// walkOrder orders entries as Python's os.walk visits them: a directory's
// non-directories, then its directories, each in the directory's own
// order; then each subdirectory the same way.
func walkOrder(entries []findEntry, top string) []findEntry {
	children := map[string][]findEntry{}
	for _, e := range entries {
		children[e.parent] = append(children[e.parent], e)
	}
	var out []findEntry
	var walk func(dir string)
	walk = func(dir string) {
		var dirs []findEntry
		isDir := func(e findEntry) bool { return e.raw&0o170000 == 0o040000 || e.dirLink }
		for _, e := range children[dir] {
			if !isDir(e) {
				out = append(out, e)
			}
		}
		for _, e := range children[dir] {
			if isDir(e) {
				out = append(out, e)
				dirs = append(dirs, e)
			}
		}
		for _, d := range dirs {
			walk(d.path)
		}
	}
	walk(top)
	return out
}

// match applies the name, type, age and size filters and returns the
// entry's stat as find reports it, or nil.
func (o findOpts) match(e findEntry, now time.Time) (map[string]any, error) {
	typ := e.raw & 0o170000
	isReg, isDir, isLnk := typ == 0o100000, typ == 0o040000, typ == 0o120000
	switch o.fileType {
	case "directory":
		if !isDir {
			return nil, nil
		}
	case "file":
		if !isReg {
			return nil, nil
		}
	case "link":
		if !isLnk {
			return nil, nil
		}
	}
	if ok, err := o.nameMatches(e.name); !ok || err != nil {
		return nil, err
	}
	st := findStat(e)
	if o.age != nil {
		t := st[o.stamp].(float64)
		diff := float64(now.UnixNano())/1e9 - t
		if (*o.age >= 0 && diff < float64(*o.age)) || (*o.age < 0 && diff > float64(-*o.age)) {
			return nil, nil
		}
	}
	if o.size != nil && isReg && (o.fileType == "any" || o.fileType == "file") {
		sz := st["size"].(int64)
		if (*o.size >= 0 && sz < *o.size) || (*o.size < 0 && sz > -*o.size) {
			return nil, nil
		}
	}
	return st, nil
}

// nameMatches is find's pfilter: a pattern matches (Python's fnmatch,
// or re.match with use_regex) and no exclude does.
func (o findOpts) nameMatches(name string) (bool, error) {
	match := func(i int, pats []string, res []*pyre.Regexp) (bool, error) {
		if o.useRegex {
			m, err := res[i].Match(name)
			return m != nil, err
		}
		return fnmatch.Match(pats[i], name), nil
	}
	for i := range o.patterns {
		ok, err := match(i, o.patterns, o.re)
		if err != nil {
			return false, err
		}
		if !ok {
			continue
		}
		for k := range o.excludes {
			if ex, err := match(k, o.excludes, o.exRe); ex || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	return false, nil
}

// findStat is the stat find reports for an entry.
func findStat(e findEntry) map[string]any {
	f, raw := e.f, e.raw
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	typ := raw & 0o170000
	st := map[string]any{
		"path": e.path, "mode": fmt.Sprintf("%04o", raw&0o7777),
		"isdir": typ == 0o040000, "ischr": typ == 0o020000, "isblk": typ == 0o060000, "isreg": typ == 0o100000,
		"isfifo": typ == 0o010000, "islnk": typ == 0o120000, "issock": typ == 0o140000,
		"uid": n(f[1]), "gid": n(f[2]), "size": n(f[3]), "inode": n(f[4]), "dev": n(f[5]), "nlink": n(f[6]),
		"atime": statTime(f[7]), "mtime": statTime(f[8]), "ctime": statTime(f[9]),
		"pw_name": unknownEmpty(f[10]), "gr_name": unknownEmpty(f[11]),
		"isuid": raw&0o4000 != 0, "isgid": raw&0o2000 != 0,
	}
	for i, k := range []string{"xoth", "woth", "roth", "xgrp", "wgrp", "rgrp", "xusr", "wusr", "rusr"} {
		st[k] = raw&(1<<i) != 0
	}
	return st
}

// unknownEmpty is a user or group name from stat, "" when the host has
// none for the id (as find reports it).
func unknownEmpty(s string) string {
	if s == "UNKNOWN" {
		return ""
	}
	return s
}

// findContents reads the candidates' checksums and, for contains, their
// contents in one round trip; it adds checksum to each and drops from
// files those whose content does not match.
func findContents(ctx context.Context, env *tasks.Env, files []any, cands []map[string]any, contains *pyre.Regexp, byLine, sum, filter bool) ([]any, error) {
	if len(cands) == 0 {
		return files, nil
	}
	b := "--" + shared.RandHex() + shared.RandHex() + "--"
	paths := make([]string, len(cands))
	for i, c := range cands {
		paths[i] = c["path"].(string)
	}
	script := shared.ShFuncs + shared.SetArgs(paths) + shared.ShAssign([][2]string{{"b", b}, {"sum", shared.BoolFlag(sum)},
		{"cat", shared.BoolFlag(contains != nil && filter)}}) + findReadScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(string(out.Stdout), "\n"+b+"\n")
	if len(parts) != len(cands)+1 {
		return nil, fmt.Errorf("find: reading %d files: %s", len(cands), shared.ScriptError(out))
	}
	drop := map[string]bool{}
	for i, c := range cands {
		body := parts[i]
		if sum {
			line, rest, _ := strings.Cut(body, "\n")
			c["checksum"], body = line, rest
		}
		if contains != nil && filter {
			ok, err := contentMatches(contains, body, byLine)
			if err != nil {
				return nil, err
			}
			if !ok {
				drop[c["path"].(string)] = true
			}
		}
	}
	if len(drop) == 0 {
		return files, nil
	}
	kept := []any{}
	for _, f := range files {
		if !drop[f.(map[string]any)["path"].(string)] {
			kept = append(kept, f)
		}
	}
	return kept, nil
}

// contentMatches is find's contentfilter on the text of one file: re
// matched at the start of a line, its "\n" kept (byLine: Python's
// re.match), or anywhere in the whole text (re.search).
func contentMatches(re *pyre.Regexp, text string, byLine bool) (bool, error) {
	if !byLine {
		m, err := re.Search(text)
		return m != nil, err
	}
	for _, l := range splitLines([]byte(text)) {
		m, err := re.MatchBytes(l)
		if m != nil || err != nil {
			return m != nil, err
		}
	}
	return false, nil
}

func (findModule) Spec() *tasks.Spec { return findArgs }
