package system

import (
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// localeGenModule makes a locale present or absent as
// community.general.locale_gen 6.6 does. On Debian the locale must be
// listed (commented or not) in /etc/locale.gen, whose line the module
// uncomments or comments before running locale-gen; where
// /var/lib/locales/supported.d exists (Ubuntu) it must be in
// /usr/share/i18n/SUPPORTED, and the module runs `locale-gen NAME` or
// drops the locale from supported.d/local and runs `locale-gen --purge`.
// Whether it is present is read from `locale -a`, whose charset
// spellings (utf8, iso885915...) are normalized. One round trip reads,
// a second applies a change.
type localeGenModule struct{}

var _ tasks.Module = (*localeGenModule)(nil)

var localeGenArgs = &tasks.Spec{
	Module: "locale_gen",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
	},
}

// localeGenReadScript reads the mode, the available locales, locale -a
// and supported.d/local: see the script's header.
//
//go:embed locale_gen_read.sh
var localeGenReadScript string

// localeGenApplyScript writes a file and runs locale-gen: see the
// script's header.
//
//go:embed locale_gen_apply.sh
var localeGenApplyScript string

// The files the module reads and writes.
const (
	localeGenFile   = "/etc/locale.gen"
	localeLocalFile = "/var/lib/locales/supported.d/local"
)

// localeNormal are locale -a's charset spellings and the module's, in
// the order the module replaces them.
var localeNormal = [][2]string{
	{".utf8", ".UTF-8"}, {".eucjp", ".EUC-JP"}, {".iso885915", ".ISO-8859-15"}, {".cp1251", ".CP1251"},
	{".koi8r", ".KOI8-R"}, {".armscii8", ".ARMSCII-8"}, {".euckr", ".EUC-KR"}, {".gbk", ".GBK"},
	{".gb18030", ".GB18030"}, {".euctw", ".EUC-TW"},
}

// pyWS and pyNonWS are Python's \s and \S for str patterns.
const (
	pyWS    = `[\t\n\v\f\r \x1c-\x1f\x85\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
	pyNonWS = `[^\t\n\v\f\r \x1c-\x1f\x85\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
)

// The lines naming an available locale: in /etc/locale.gen (commented
// or not) and in /usr/share/i18n/SUPPORTED.
var (
	localeGenLine   = regexp.MustCompile(`^#?` + pyWS + `*(` + pyNonWS + `+_` + pyNonWS + `+) ` + pyNonWS + `+` + pyWS + `*$`)
	localeSupported = regexp.MustCompile(`^(` + pyNonWS + `+_` + pyNonWS + `+) ` + pyNonWS + `+` + pyWS + `*$`)
)

// Run makes the locale present or absent.
func (localeGenModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := localeGenArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, state := a.Str("name"), a.Str("state")
	out, err := shared.Run(ctx, env, localeGenReadScript, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	switch {
	case v["ok"] != "1" || out.ExitCode != 0:
		return shared.FailWith(shared.ScriptError(out), nil)
	case v["mode"] == "none":
		return shared.FailWith(`/etc/locale.gen and /var/lib/locales/supported.d/local are missing. Is the package "locales" installed?`, nil)
	case v["noavail"] != "":
		return pyCrash("FileNotFoundError: [Errno 2] No such file or directory: " + shared.PyRepr(v["noavail"]))
	}
	ubuntu := v["mode"] == "ubuntu"
	avail, _ := shared.Section(out.Stdout, "avail", "locales")
	avail = pyTextRead(strings.TrimSuffix(avail, "\n"))
	if !localeAvailable(avail, name, ubuntu) {
		return shared.FailWith("The locale you've entered is not available on your system.", nil)
	}
	if v["nolocale"] == "1" {
		return pyCrash("FileNotFoundError: [Errno 2] No such file or directory: 'locale'")
	}
	listed, _ := shared.Section(out.Stdout, "locales", "local")
	changed := localePresent(listed, name) != (state == "present")
	if env.Check {
		return tasks.Result{Changed: changed, Data: map[string]any{}}, nil
	}
	ok := tasks.Result{Changed: changed, Msg: "OK", Data: map[string]any{"name": name, "msg": "OK"}}
	if !changed {
		return ok, nil
	}
	ap := localeApply{}
	switch {
	case !ubuntu:
		text, err := setLocaleLines(avail, name, state == "present")
		if err != nil {
			return pyCrash("re.error: " + err.Error())
		}
		ap.write, ap.content = localeGenFile, text
	case state == "present":
		ap.args = []string{name}
	case v["local"] != "ok":
		// The module's cleanup closes a file it could not open, and dies
		// of that instead of reporting the open's error.
		return pyCrash("UnboundLocalError: cannot access local variable 'f' where it is not associated with a value")
	default:
		local, _ := shared.Section(out.Stdout, "local", "")
		ap.write, ap.args = localeLocalFile, []string{"--purge"}
		ap.content, ap.crash = dropLocalLine(pyTextRead(strings.TrimSuffix(local, "\n")), name)
	}
	return ap.run(ctx, env, ok)
}

func (localeGenModule) Spec() *tasks.Spec { return localeGenArgs }

// localeApply is the change locale_gen makes: the file it rewrites
// (write, "" for none) with content, then, unless the rewrite crashed
// the module (crash, the exception's line), locale-gen with args.
type localeApply struct {
	write, content, crash string
	args                  []string
}

// run applies the change in one round trip and returns ok, or the
// failure locale_gen reports.
func (ap localeApply) run(ctx context.Context, env *tasks.Env, ok tasks.Result) (tasks.Result, error) {
	script := shared.ShAssign([][2]string{{"write", ap.write}, {"stop", shared.BoolFlag(ap.crash != "")}}) +
		shared.SetArgs(ap.args) + localeGenApplyScript
	out, err := shared.Run(ctx, env, script, strings.NewReader(ap.content))
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	switch {
	case v["fail"] != "":
		return shared.FailWith(v["fail"], nil)
	case ap.crash != "":
		return pyCrash(ap.crash)
	case v["gen"] == "missing":
		return localeGenFail(2, "[Errno 2] No such file or directory: 'locale-gen'")
	case v["rc"] == "" || out.ExitCode != 0:
		return shared.FailWith(shared.ScriptError(out), nil)
	case v["rc"] != "0":
		rc, _ := strconv.Atoi(v["rc"])
		return localeGenFail(rc, fmt.Sprintf("[Errno %d] locale.gen failed to execute, it returned %d", rc, rc))
	}
	return ok, nil
}

// localeGenFail is the module's failure for an OS error or a failed
// locale-gen: msg and exitValue.
func localeGenFail(errno int, msg string) (tasks.Result, error) {
	return shared.FailWith(msg, map[string]any{"exitValue": errno})
}

// localeAvailable reports whether a line of the available list (text)
// names the locale exactly: /etc/locale.gen's lines, commented or not,
// or, in Ubuntu mode, SUPPORTED's.
func localeAvailable(text, name string, ubuntu bool) bool {
	re := localeGenLine
	if ubuntu {
		re = localeSupported
	}
	for _, line := range strings.Split(text, "\n") {
		if m := re.FindStringSubmatch(line); m != nil && m[1] == name {
			return true
		}
	}
	return false
}

// localePresent reports whether locale -a's output lists the locale,
// charsets compared in the module's spelling.
func localePresent(listed, name string) bool {
	want := localeFixCase(name)
	for _, l := range pySplitLines(listed) {
		if localeFixCase(l) == want {
			return true
		}
	}
	return false
}

// localeFixCase rewrites locale -a's charset spellings as the module does.
func localeFixCase(s string) string {
	for _, r := range localeNormal {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return s
}

// setLocaleLines uncomments (enable) or comments the lines of
// /etc/locale.gen (text) naming the locale, with the module's pattern:
// the name is a regular expression, and any part of a line it matches
// followed by a space and a charset is rewritten.
func setLocaleLines(text, name string, enable bool) (string, error) {
	re, err := regexp.Compile(`#?` + pyWS + `*` + name + ` (?P<charset>.+)`)
	if err != nil {
		return "", err
	}
	repl := strings.ReplaceAll(name, "$", "$$") + " ${charset}"
	if !enable {
		repl = "# " + repl
	}
	var b strings.Builder
	for _, line := range splitKeepNL(text) {
		b.WriteString(re.ReplaceAllString(line, repl))
	}
	return b.String(), nil
}

// dropLocalLine is supported.d/local (text) without the lines of the
// locale. Every line must be "locale charset"; at the first that is not,
// the module dies with the text written so far: crash is then the
// exception's line.
func dropLocalLine(text, name string) (content, crash string) {
	var b strings.Builder
	for _, line := range splitKeepNL(text) {
		parts := strings.Split(line, " ")
		switch {
		case len(parts) < 2:
			return b.String(), fmt.Sprintf("ValueError: not enough values to unpack (expected 2, got %d)", len(parts))
		case len(parts) > 2:
			return b.String(), "ValueError: too many values to unpack (expected 2)"
		case parts[0] != name:
			b.WriteString(line)
		}
	}
	return b.String(), ""
}

// pySplitLines splits s as Python's str.splitlines().
func pySplitLines(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		case '\r':
			if i+1 < len(rs) && rs[i+1] == '\n' {
				out = append(out, string(rs[start:i]))
				i++
				start = i + 1
				continue
			}
		default:
			continue
		}
		out = append(out, string(rs[start:i]))
		start = i + 1
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}
