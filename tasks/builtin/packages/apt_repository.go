package packages

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// aptRepositoryModule adds or removes an APT source line, as Ansible's
// apt_repository does, without python-apt: one round trip reads the
// sources list and every *.list in sources.list.d (apt-config names
// them); the module works out, as Ansible does, which files change; when
// one does, a second round trip writes them (a temporary file and a
// rename, each checked to be still what was read), deletes the ones left
// empty and runs apt-get update, putting every file back as it was when
// the update fails.
//
// As Ansible, every line is rewritten in its normal form ("# " before a
// disabled source, single spaces, " # " before a comment) in every file
// it rewrites, and a change rewrites every file (an empty file is
// removed). Differences, each deliberate: a repeated line is removed
// wherever it is (Ansible's removal skips the line after each one it
// removes, and may remove a different line); a symlinked file is written
// through its link (as ansible-core does since 2.16); a failed update puts
// the files back byte for byte (Ansible rewrites them from what it read);
// and adding a PPA that is not already there is refused, as it needs
// Launchpad's API for the PPA's signing key (removing one, or adding one
// that is there, needs nothing and works).
type aptRepositoryModule struct{}

var _ tasks.Module = aptRepositoryModule{}

var aptRepositoryArgs = &tasks.Spec{
	Module: "apt_repository",
	Params: []tasks.Param{
		{Name: "repo", Required: true},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "mode", Kind: tasks.Raw},
		{Name: "update_cache", Kind: tasks.Bool, Default: true, Aliases: []string{"update-cache"}},
		{Name: "update_cache_retries", Kind: tasks.Int, Default: 5},
		{Name: "update_cache_retry_max_delay", Kind: tasks.Int, Default: 12},
		{Name: "filename"},
		{Name: "codename"},
		// Only PPA lookups (refused when they would be needed) fetch a
		// URL; tender needs no python-apt, so there is none to install.
		{Name: "validate_certs", Kind: tasks.Bool, Default: true},
		{Name: "install_python_apt", Kind: tasks.Bool, Default: true},
	},
}

// Spec returns apt_repository's parameters.
func (aptRepositoryModule) Spec() *tasks.Spec { return aptRepositoryArgs }

// aptSource is one line of a sources file, as Ansible's apt_repository
// reads it: valid when it is a deb or deb-src line (enabled or not).
type aptSource struct {
	valid, enabled  bool
	source, comment string
}

// aptSourceFile is one sources file: its lines, and what it held when
// read (exists false for a file the plan adds).
type aptSourceFile struct {
	path    string
	lines   []aptSource
	raw     string
	exists  bool
	touched bool // a source was appended to it (mode applies)
}

// aptSources are the files apt reads sources from, in reading order.
type aptSources struct {
	files []*aptSourceFile
	sl    string // the sources list file
	sp    string // the parts directory, with a trailing slash
}

// aptRepoJob is one apt_repository task: its decoded arguments and,
// once the sources are read, the files and their dumps before and after
// the change.
type aptRepoJob struct {
	a           tasks.Values
	mode        string
	repo, state string
	ppa         bool
	diff        bool
	// Planned from the files read.
	srcs          *aptSources
	codename      string // the distribution's, as read when not given
	before, after map[string]string
	changed       bool
}

// Run adds or removes the source line.
func (aptRepositoryModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, bad, err := decodeAptRepo(args, env)
	if err != nil || bad != nil {
		return shared.EndWith(bad, err)
	}
	out, err := shared.Run(ctx, env, j.readScript(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if bad := j.read(out); bad != nil {
		return *bad, nil
	}
	if bad, err := j.plan(); err != nil || bad != nil {
		return shared.EndWith(bad, err)
	}
	res := j.result()
	if !j.changed || env.Check {
		return res, nil
	}
	out, err = shared.Run(ctx, env, j.writeScript(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if bad := j.written(out); bad != nil {
		return *bad, nil
	}
	return res, nil
}

// decodeAptRepo checks apt_repository's arguments and makes the job. A
// non-nil result is the failure Ansible reports for an empty repo; the
// error is a bad argument.
func decodeAptRepo(args tasks.Args, env *tasks.Env) (*aptRepoJob, *tasks.Result, error) {
	a, err := aptRepositoryArgs.Decode(args)
	if err != nil {
		return nil, nil, err
	}
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return nil, nil, err
	}
	j := &aptRepoJob{a: a, mode: mode, repo: a.Str("repo"), state: a.Str("state"), diff: env.Diff}
	if j.repo == "" {
		r := shared.Fail("Please set argument 'repo' to a non-empty value")
		return nil, &r, nil
	}
	j.ppa = strings.HasPrefix(j.repo, "ppa:")
	return j, nil, nil
}

// readScript reads the sources files, and the codename when a PPA is
// given without one.
func (j *aptRepoJob) readScript() string {
	wantCodename := j.ppa && j.a.Str("codename") == ""
	return shared.ShAssign([][2]string{{"want_codename", shared.BoolFlag(wantCodename)}}) + shared.DebBlobFuncs + aptRepoReadScript
}

// read takes the sources files and the codename from the read script's
// output, or returns the failure when the script could not read them.
func (j *aptRepoJob) read(out transport.Result) *tasks.Result {
	v, blobs := shared.ParseDebBlobs(string(out.Stdout))
	var r tasks.Result
	switch {
	case v["fail"] != "":
		r = shared.Fail(v["fail"])
	case v["done"] != "1":
		r = shared.Fail(shared.ScriptError(out))
	default:
		j.srcs = &aptSources{sl: v["sl"], sp: v["sp"]}
		for _, b := range blobs {
			j.srcs.files = append(j.srcs.files, &aptSourceFile{path: b.Name, lines: parseAptSources(b.Body), raw: b.Body, exists: true})
		}
		j.codename = shared.OrDefault(j.a.Str("codename"), v["codename"])
		return nil
	}
	return &r
}

// plan adds or removes the source in the files read and dumps them
// before and after. It returns the failure for an invalid repository
// string, and an error for a PPA it would have to add.
func (j *aptRepoJob) plan() (*tasks.Result, error) {
	srcs := j.srcs
	j.before = srcs.dump()
	if j.ppa {
		line := aptPPALine(j.repo, j.codename)
		if j.state == "absent" {
			srcs.remove(line)
		} else if !srcs.has(line) {
			return nil, fmt.Errorf("apt_repository: adding %s needs Launchpad's API (the PPA's signing key), which tender does not query; "+
				"add its key (apt_key or a keyring file) and the line %q instead", j.repo, line)
		}
	} else {
		src, bad := aptSourceOf(j.repo)
		if bad != "" {
			r := shared.Fail("Invalid repository string: " + bad)
			return &r, nil
		}
		if j.state == "absent" {
			srcs.remove(src)
		} else {
			name, ok := aptSuggestFilename(src, j.a)
			if !ok {
				r := shared.Fail("Invalid repository string: " + j.repo)
				return &r, nil
			}
			srcs.add(src, name)
		}
	}
	j.after = srcs.dump()
	j.changed = !sameDump(j.before, j.after)
	return nil, nil
}

// result is apt_repository's result: the repo, its state and, in diff
// mode when a file changes, the diff of every file.
func (j *aptRepoJob) result() tasks.Result {
	res := tasks.Result{Changed: j.changed, Data: map[string]any{"repo": j.repo, "state": j.state, "diff": map[string]any{}}}
	if j.changed && j.diff {
		entries := aptRepoDiff(j.before, j.after)
		res.Data["diff"] = entries
		res.Diff = renderAptRepoDiff(entries)
	}
	return res
}

// writeScript applies the plan to the files and updates the cache as
// asked.
func (j *aptRepoJob) writeScript() string {
	return shared.ShAssign([][2]string{{"retries", fmt.Sprint(j.a.Int("update_cache_retries"))},
		{"maxdelay", fmt.Sprint(j.a.Int("update_cache_retry_max_delay"))}, {"update", shared.BoolFlag(j.a.Bool("update_cache"))}}) +
		shared.SetArgs(j.srcs.writePlan(j.mode)) + aptRepoWriteScript
}

// written returns the failure the write script reports, if any.
func (j *aptRepoJob) written(out transport.Result) *tasks.Result {
	w := shared.ParseVerdict(out.Stdout)
	var r tasks.Result
	switch {
	case w["fail"] != "":
		r = shared.Fail(w["fail"])
	case w["uerr"] != "":
		r = shared.Fail("Failed to update apt cache: " + w["uerr"])
	case w["done"] != "1":
		r = shared.Fail(shared.ScriptError(out))
	default:
		return nil
	}
	return &r
}

// parseAptSources reads a sources file's lines as Ansible does: a line
// starting with # is a disabled one; text after a later # is a comment;
// a line whose first word is deb or deb-src is a source, its words
// joined by single spaces. Line ends are Python's universal newlines.
func parseAptSources(text string) []aptSource {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var out []aptSource
	for _, l := range shared.SplitLinesKeep(text) {
		s, _ := parseAptSourceLine(l)
		out = append(out, s)
	}
	return out
}

// parseAptSourceLine reads one line; rest is the text Ansible names in
// "Invalid repository string" (the line without its # and comment).
func parseAptSourceLine(line string) (s aptSource, rest string) {
	s.enabled = true
	line = aptStrip(line)
	if strings.HasPrefix(line, "#") {
		s.enabled = false
		line = line[1:]
	}
	if i := strings.Index(line, "#"); i > 0 {
		s.comment = aptStrip(line[i+1:])
		line = line[:i]
	}
	s.source = aptStrip(line)
	if s.source != "" {
		words := aptFields(s.source)
		if words[0] == "deb" || words[0] == "deb-src" {
			s.valid = true
			s.source = strings.Join(words, " ")
		}
	}
	return s, line
}

// aptSourceOf is repo's source line, or the text of an invalid one.
func aptSourceOf(repo string) (source, invalid string) {
	s, rest := parseAptSourceLine(repo)
	if !s.valid || !s.enabled {
		return "", rest
	}
	return s.source, ""
}

// aptIsSpace is Python's str.isspace for one rune.
func aptIsSpace(r rune) bool {
	return (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x20) || r == 0x85 || r == 0xa0 || r == 0x1680 ||
		(r >= 0x2000 && r <= 0x200a) || r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000
}

// aptStrip and aptFields are Python's str.strip() and str.split().
func aptStrip(s string) string    { return strings.TrimFunc(s, aptIsSpace) }
func aptFields(s string) []string { return strings.FieldsFunc(s, aptIsSpace) }

// sameDump reports two dumps equal.
func sameDump(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		if y, ok := b[k]; !ok || x != y {
			return false
		}
	}
	return true
}

// text is the line as Ansible writes it back.
func (s aptSource) text() string {
	t := s.source
	if !s.enabled {
		t = "# " + t
	}
	if s.comment != "" {
		t += " # " + s.comment
	}
	return t + "\n"
}

// dump is each non-empty file's text as Ansible would write it.
func (s *aptSources) dump() map[string]string {
	out := map[string]string{}
	for _, f := range s.files {
		if len(f.lines) > 0 {
			out[f.path] = f.content()
		}
	}
	return out
}

func (f *aptSourceFile) content() string {
	var b strings.Builder
	for _, l := range f.lines {
		b.WriteString(l.text())
	}
	return b.String()
}

// has reports an enabled source line equal to source.
func (s *aptSources) has(source string) bool {
	for _, f := range s.files {
		for _, l := range f.lines {
			if l.valid && l.enabled && l.source == source {
				return true
			}
		}
	}
	return false
}

// add enables every line holding source (disabled ones too) or, when
// there is none, appends it to file (a name in the parts directory, or a
// path).
func (s *aptSources) add(source, file string) {
	found := false
	for _, f := range s.files {
		for i, l := range f.lines {
			if l.valid && l.source == source {
				f.lines[i].enabled = true
				found = true
			}
		}
	}
	if found {
		return
	}
	if !strings.Contains(file, "/") {
		file = path.Clean(s.sp + file)
	}
	var target *aptSourceFile
	for _, f := range s.files {
		if f.path == file {
			target = f
		}
	}
	if target == nil {
		target = &aptSourceFile{path: file}
		s.files = append(s.files, target)
	}
	target.lines = append(target.lines, aptSource{valid: true, enabled: true, source: source})
	target.touched = true
}

// remove drops every enabled line holding source.
func (s *aptSources) remove(source string) {
	for _, f := range s.files {
		kept := f.lines[:0:0]
		for _, l := range f.lines {
			if !(l.valid && l.enabled && l.source == source) {
				kept = append(kept, l)
			}
		}
		f.lines = kept
	}
}

var (
	aptOptions  = regexp.MustCompile(`\[[^\]]+\]`)
	aptProtocol = regexp.MustCompile(`[\p{L}\p{N}_]+://`)
	aptNonAlnum = regexp.MustCompile(`[^a-zA-Z0-9]`)
)

// aptSuggestFilename is the file a new source goes to, as Ansible names
// it: filename.list, or the source's host and path, options and protocol
// dropped, with every other character turned to "_".
func aptSuggestFilename(source string, a tasks.Values) (string, bool) {
	if a.Has("filename") {
		return a.Str("filename") + ".list", true
	}
	line := aptProtocol.ReplaceAllString(aptOptions.ReplaceAllString(source, ""), "")
	var parts []string
	for _, p := range aptFields(line) {
		if p != "deb" && p != "deb-src" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	first := parts[0]
	if i := strings.Index(first, "@"); i >= 0 {
		first = first[i+1:]
	}
	return strings.Join(aptFields(aptNonAlnum.ReplaceAllString(first, " ")), "_") + ".list", true
}

// aptPPALine is the source line of a PPA ("ppa:owner[/name]").
func aptPPALine(repo, codename string) string {
	ppa := strings.SplitN(repo, ":", 3)[1]
	owner, name, ok := strings.Cut(ppa, "/")
	if !ok {
		name = "ppa"
	} else if i := strings.Index(name, "/"); i >= 0 {
		name = name[:i]
	}
	return fmt.Sprintf("deb http://ppa.launchpad.net/%s/%s/ubuntu %s main", owner, name, codename)
}

// aptRepoDiff is Ansible's diff list: one entry per file before or
// after, sorted by path, a file that did not exist on one side named
// /dev/null there.
func aptRepoDiff(before, after map[string]string) []any {
	names := map[string]bool{}
	for k := range before {
		names[k] = true
	}
	for k := range after {
		names[k] = true
	}
	var sorted []string
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []any
	for _, n := range sorted {
		bh, ah := n, n
		if _, ok := before[n]; !ok {
			bh = "/dev/null"
		}
		if _, ok := after[n]; !ok {
			ah = "/dev/null"
		}
		out = append(out, map[string]any{"before": before[n], "after": after[n], "before_header": bh, "after_header": ah})
	}
	return out
}

// renderAptRepoDiff renders the entries whose text changed.
func renderAptRepoDiff(entries []any) string {
	var b strings.Builder
	for _, e := range entries {
		d := e.(map[string]any)
		bt, at := d["before"].(string), d["after"].(string)
		u := shared.UnifiedDiff("", bt, at)
		if u == "" {
			continue
		}
		_, hunks, _ := strings.Cut(u, "\n+++ after: \n")
		fmt.Fprintf(&b, "--- before: %s\n+++ after: %s\n%s", d["before_header"], d["after_header"], hunks)
	}
	return b.String()
}

// writePlan is the plan apt_repo_write.sh applies, five words a file:
// its path, the MD5 of what was read ("" when it did not exist), what to
// do (put, drop or keep), its new text and the mode to give it.
func (s *aptSources) writePlan(mode string) []string {
	var plan []string
	for _, f := range s.files {
		sum := ""
		if f.exists {
			sum = shared.Md5hex([]byte(f.raw))
		}
		do, m := "keep", ""
		switch {
		case len(f.lines) == 0 && f.exists:
			do = "drop"
		case len(f.lines) == 0:
		case f.content() != f.raw || !f.exists || (f.touched && mode != ""):
			do = "put"
			if f.touched {
				m = mode
			}
		}
		plan = append(plan, f.path, sum, do, f.content(), m)
	}
	return plan
}
