package files

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/fnmatch"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// archiveProbe is what the probe script saw on the host: the path and
// exclude_path lists expanded (globs in the order Python's glob lists
// them), dest expanded, each source path's kind and each directory's
// walk, and the attributes of the joined path (pi_) and of the only
// source path (ps_).
type archiveProbe struct {
	params, expanded, excluded []string
	dest                       string
	globby                     bool
	kinds                      map[string]byte // 'm' missing, 'd' directory, 'f' anything else
	walks                      map[string][]archiveEntry
	v                          shared.Verdict
}

// archiveEntry is one path met walking a directory source; dir is true
// for a directory or a link to one (Python's os.walk lists both among
// the directories).
type archiveEntry struct {
	path string
	dir  bool
}

// parseArchiveProbe reads the probe script's lines.
func parseArchiveProbe(out string) archiveProbe {
	p := archiveProbe{kinds: map[string]byte{}, walks: map[string][]archiveEntry{}, v: shared.Verdict{}}
	cur := ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "g":
			p.globby = true
		case strings.HasPrefix(line, "p "):
			p.params = append(p.params, line[2:])
		case strings.HasPrefix(line, "d "):
			p.dest = line[2:]
		case strings.HasPrefix(line, "e "):
			p.expanded = append(p.expanded, line[2:])
		case strings.HasPrefix(line, "x "):
			p.excluded = append(p.excluded, line[2:])
		case strings.HasPrefix(line, "t ") && len(line) > 4:
			cur = line[4:]
			p.kinds[cur] = line[2]
		case strings.HasPrefix(line, "w ") && len(line) > 4:
			p.walks[cur] = append(p.walks[cur], archiveEntry{path: line[4:], dir: line[2] == 'd'})
		default:
			if k, val, ok := strings.Cut(line, "="); ok && k != "" {
				p.v[k] = val
			}
		}
	}
	return p
}

// archivePlan is what the module decided from the probe, as Ansible's
// module decides it: the sources (sorted, excluded ones left out), their
// common root, whether they make an archive or one compressed file, the
// destination, the members to write and the sources to delete.
type archivePlan struct {
	format      string
	paths       []string // the sources, sorted, each once
	root        string   // arcroot: the sources' common directory, with a slash
	mustArchive bool
	dest        string
	targets     []string // the sources that exist
	missing     []string // the sources that do not
	names       []string // the members, relative to root
	archived    []string // the sources of the members Ansible reports
	removals    []string // "f:PATH" files and "d:PATH" trees to delete
}

// archiveSources is Python's sorted(set(expanded) - set(excluded)).
func archiveSources(expanded, excluded []string) []string {
	out := []string{}
	for _, p := range expanded {
		if !slices.Contains(excluded, p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// pyDirname is Python's os.path.dirname.
func pyDirname(p string) string {
	head := p[:strings.LastIndex(p, "/")+1]
	if head != "" && strings.Trim(head, "/") != "" {
		head = strings.TrimRight(head, "/")
	}
	return head
}

// withSlash is Python's os.path.join(p, ""): p ending with one slash,
// "" staying "".
func withSlash(p string) string {
	if p == "" || strings.HasSuffix(p, "/") {
		return p
	}
	return p + "/"
}

// archiveRoot is the module's common_path: the longest common prefix of
// the paths' directories, cut back to a directory, with a slash.
func archiveRoot(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	prefix := withSlash(pyDirname(paths[0]))
	for _, p := range paths[1:] {
		d := withSlash(pyDirname(p))
		n := 0
		for n < len(prefix) && n < len(d) && prefix[n] == d[n] {
			n++
		}
		prefix = prefix[:n]
	}
	return withSlash(pyDirname(prefix))
}

// stripRoot is the module's strip_prefix: name without the root.
func stripRoot(root, p string) string {
	if strings.HasPrefix(p, root) {
		return p[len(root):]
	}
	return p
}

// archiveNameRe is the module's is_archive: a name that looks like an
// archive, which makes an existing dest with no source an "archive".
var archiveNameRe = regexp.MustCompile(`(?i)\.(tar|tar\.(gz|bz2|xz)|tgz|tbz2|zip)$`)

// isArchiveName reports whether dest's base name looks like an archive.
func isArchiveName(dest string) bool {
	return archiveNameRe.MatchString(dest[strings.LastIndex(dest, "/")+1:])
}

// planArchive decides as the module's constructor does; a non-empty
// message is its failure: no source left, or no dest where one is
// required. A remove that would delete dest is checked by unsafeRemove.
func planArchive(p archiveProbe, format string, force bool) (archivePlan, string) {
	pl := archivePlan{format: format, paths: archiveSources(p.expanded, p.excluded), dest: p.dest}
	if len(pl.paths) == 0 {
		return pl, "Error, no source paths were found"
	}
	pl.root = archiveRoot(pl.paths)
	pl.mustArchive = force || p.globby || p.kinds[pl.paths[0]] == 'd' || len(pl.paths) > 1
	if pl.dest == "" && !pl.mustArchive {
		pl.dest = pl.paths[0] + "." + format
	}
	if pl.mustArchive && pl.dest == "" {
		return pl, `Error, must specify "dest" when archiving multiple files or trees`
	}
	for _, s := range pl.paths {
		if p.kinds[s] == 'm' {
			pl.missing = append(pl.missing, s)
		} else {
			pl.targets = append(pl.targets, s)
		}
	}
	return pl, ""
}

// unsafeRemove reports whether dest lies under a directory source, which
// remove would delete.
func (pl archivePlan) unsafeRemove(p archiveProbe) bool {
	for _, s := range pl.paths {
		if p.kinds[s] == 'd' && strings.HasPrefix(pl.dest, withSlash(s)) {
			return true
		}
	}
	return false
}

// members fills names, archived and removals for writing an archive of
// the targets (all of them, or the one source in single) as the module
// adds them: a directory's contents in os.walk's order without the
// directory itself, a member left out when an exclusion pattern matches
// its name (tar) or its path (zip), and a zip's directories not counted
// as archived.
func (pl *archivePlan) members(p archiveProbe, patterns []string, single bool) {
	pats := make([]fnmatch.Pattern, len(patterns))
	for i, s := range patterns {
		pats[i] = fnmatch.Compile(s)
	}
	add := func(path string, dir bool) {
		name := stripRoot(pl.root, path)
		subject := strings.TrimLeft(name, "/")
		if pl.format == "zip" {
			subject = path
		}
		for _, pt := range pats {
			if pt.Match(subject) {
				return
			}
		}
		pl.names = append(pl.names, name)
		if pl.format != "zip" || !dir {
			pl.archived = append(pl.archived, path)
		}
	}
	for _, t := range pl.targets {
		if p.kinds[t] == 'd' && !single {
			for _, e := range p.walks[t] {
				add(e.path, e.dir)
			}
			continue
		}
		add(t, false)
	}
}

// removalList is what remove deletes after writing the archive: each
// archived source that is no directory's content, then every directory
// source whole (the module's remove_targets).
func (pl archivePlan) removalList(p archiveProbe) []string {
	out := []string{}
	for _, a := range pl.archived {
		if k, ok := p.kinds[a]; ok && k != 'd' {
			out = append(out, "f:"+a)
		}
	}
	for _, s := range pl.paths {
		if p.kinds[s] == 'd' {
			out = append(out, "d:"+s)
		}
	}
	return out
}

// pyStrList turns paths into the []any a result holds.
func pyStrList(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}
