package files

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// templateModule renders a controller-side Jinja2 template (found with
// FindFile("templates", src)) in the task's scope with Env.Render, then
// puts the text in place exactly as copy does with content, in copy's
// round trips, with copy's results, check mode and --diff.
type templateModule struct{}

var _ tasks.Module = (*templateModule)(nil)

// templateOnly are template's own parameters, not handed to copy.
var templateOnly = []tasks.Param{
	{Name: "newline_sequence", Default: "\n"},
	{Name: "trim_blocks", Kind: tasks.Bool, Default: true},
	{Name: "lstrip_blocks", Kind: tasks.Bool, Default: false},
	{Name: "variable_start_string"}, {Name: "variable_end_string"},
	{Name: "block_start_string"}, {Name: "block_end_string"},
	{Name: "comment_start_string"}, {Name: "comment_end_string"},
	{Name: "output_encoding", Default: "utf-8"},
	{Name: "state"},
}

var templateArgs = func() *tasks.Spec {
	s := &tasks.Spec{Module: "template"}
	for _, p := range copyArgs.Params {
		switch p.Name {
		case "content", "remote_src", "directory_mode", "local_follow", "checksum", "decrypt", "_original_basename":
			continue
		}
		p.Required = false // template says "src and dest are required" itself
		s.Params = append(s.Params, p)
	}
	s.Params = append(s.Params, templateOnly...)
	return s
}()

// Run renders and copies: the job decoded, the template read, rendered
// into the bytes to write, and handed to copy as its content.
func (templateModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := templateArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, fail := decodeTemplate(env, a)
	if fail != nil {
		return *fail, nil
	}
	src, fail, err := readTemplate(env, a.Str("src"))
	if err != nil || fail != nil {
		return shared.EndWith(fail, err)
	}
	b, fail := j.render(env, src)
	if fail != nil {
		return *fail, nil
	}
	return copyModule{}.Run(ctx, env, templateCopyArgs(args, a, src, b))
}

// templateJob is one template task's output settings: the newline
// sequence its lines end with and the codec it is written in.
type templateJob struct {
	nl    string
	codec textCodec
	// src and dest as the task gives them (template_path and
	// template_destpath).
	src, dest string
	// syntax is how the file is read: the markers the task sets
	// (variable_start_string...), trim_blocks and lstrip_blocks.
	syntax expr.FileSyntax
}

// templateSource is a template read from the controller: its path, its
// stat and its text (decrypted when vault-encrypted).
type templateSource struct {
	local string
	fi    os.FileInfo
	text  []byte
}

// templateFail is the failed result template gives with msg.
func templateFail(msg string) *tasks.Result {
	r, _ := shared.FailWith(msg, nil)
	return &r
}

// decodeTemplate builds the job the arguments ask for, or the failure
// template gives for state, a missing src or dest, a newline sequence,
// delimiter, block setting or encoding tender does not take, or when
// nothing here can render.
func decodeTemplate(env *tasks.Env, a tasks.Values) (templateJob, *tasks.Result) {
	var j templateJob
	if a.Has("state") {
		return j, templateFail("'state' cannot be specified on a template")
	}
	if !a.Has("src") || !a.Has("dest") {
		return j, templateFail("src and dest are required")
	}
	j.src, j.dest = a.Str("src"), a.Str("dest")
	j.nl = a.Str("newline_sequence")
	switch j.nl {
	case `\n`, `\r`, `\r\n`:
		j.nl = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(j.nl)
	case "\n", "\r", "\r\n":
	default:
		return j, templateFail("newline_sequence needs to be one of: \n, \r or \r\n")
	}
	for _, k := range expr.TemplateMarkers {
		if a.Has(k) {
			if j.syntax.Markers == nil {
				j.syntax.Markers = map[string]string{}
			}
			j.syntax.Markers[k] = a.Str(k)
		}
	}
	j.syntax.NoTrimBlocks, j.syntax.LstripBlocks = !a.Bool("trim_blocks"), a.Bool("lstrip_blocks")
	if (j.syntax.Markers != nil || j.syntax.NoTrimBlocks || j.syntax.LstripBlocks) && env.RenderFile == nil {
		return j, templateFail("templates with their own markers, trim_blocks or lstrip_blocks cannot be rendered here")
	}
	var ok bool
	// An empty output_encoding is utf-8, as Ansible's template action has it.
	enc := a.Str("output_encoding")
	if enc == "" {
		enc = "utf-8"
	}
	if j.codec, ok = codecFor(enc); !ok {
		return j, templateFail(fmt.Sprintf("unknown encoding: %s", enc))
	}
	if env.Render == nil {
		return j, templateFail("templates cannot be rendered here")
	}
	return j, nil
}

// readTemplate finds the controller's template src, checks it against the
// sandbox, stats and reads it, decrypting a vaulted one; a failed result
// when it cannot be found, read or decrypted, or is not UTF-8.
func readTemplate(env *tasks.Env, src string) (templateSource, *tasks.Result, error) {
	var s templateSource
	local, err := env.FindFile("templates", src)
	if err != nil {
		return s, templateFail(err.Error()), nil
	}
	if err := env.Sandbox.CheckRead(local); err != nil {
		return s, nil, err
	}
	s.local = local
	if s.fi, err = os.Stat(local); err != nil {
		return s, templateFail(fmt.Sprintf("could not find src=%s, %v", local, err)), nil
	}
	if msg := vaultRefusal(env, local); msg != "" {
		if env.Decrypt == nil {
			return s, templateFail(msg), nil
		}
		if s.text, err = decryptFile(env, local); err != nil {
			return s, templateFail(err.Error()), nil
		}
	} else if s.text, err = env.Sandbox.ReadFile(local); err != nil {
		return s, templateFail(fmt.Sprintf("could not find src=%s, %v", local, err)), nil
	} else if s.text, err = os.ReadFile(local); err != nil {
		return s, templateFail(fmt.Sprintf("could not find src=%s, %v", local, err)), nil
	}
	if !utf8.Valid(s.text) {
		return s, templateFail("Template source files must be utf-8 encoded"), nil
	}
	return s, nil, nil
}

// render renders the template's text in the task's scope and returns it
// with the template's trailing newlines, the job's newline sequence and
// encoding; a failed result when it cannot be rendered or encoded.
func (j templateJob) render(env *tasks.Env, s templateSource) ([]byte, *tasks.Result) {
	var out string
	var err error
	if env.RenderFile != nil {
		// The template's own variables (ansible_managed among them) lie
		// over the task's.
		// Jinja turns the text's newlines into the newline sequence,
		// and Ansible's templar makes up the trailing ones with it.
		syntax := j.syntax
		syntax.Newline = j.nl
		f := tasks.TemplateFile{Path: s.local, Vars: expr.TemplateVars(j.src, s.local, j.dest), Syntax: syntax}
		out, err = env.RenderFile(string(s.text), f)
	} else {
		out, err = env.Render(withTemplateVars(string(s.text)))
	}
	if err != nil {
		return nil, templateFail(expr.ExceptionText(err))
	}
	if env.RenderFile == nil {
		// Ansible keeps the template's trailing newlines: the output
		// ends in at least as many as the source does.
		if want := trailingNewlines(string(s.text)); want > trailingNewlines(out) {
			out += strings.Repeat("\n", want-trailingNewlines(out))
		}
		if j.nl != "\n" {
			out = strings.ReplaceAll(out, "\n", j.nl)
		}
	}
	b, err := j.codec.encode([]byte(out))
	if err != nil {
		return nil, templateFail(err.Error())
	}
	return b, nil
}

// templateCopyArgs are the arguments copy gets: the task's own (args, a
// decoded) less template's parameters and src, with the rendered bytes b
// as content under the template's name, and mode preserve as the
// template's mode.
func templateCopyArgs(args tasks.Args, a tasks.Values, s templateSource, b []byte) tasks.Args {
	cargs := tasks.Args{}
	for k, v := range args {
		cargs[k] = v
	}
	for _, p := range templateOnly {
		delete(cargs, p.Name)
	}
	delete(cargs, "src")
	cargs["content"] = string(b)
	cargs["_original_basename"] = path.Base(s.local)
	if m, _ := a["mode"].(string); m == "preserve" {
		cargs["mode"] = fmt.Sprintf("0%03o", s.fi.Mode().Perm())
	}
	return cargs
}

// managedStr is ansible_managed's value: Ansible's default
// (DEFAULT_MANAGED_STR), whose strftime has nothing to replace.
const managedStr = "Ansible managed"

// withTemplateVars defines the template-only variable ansible_managed
// ahead of the text, over any variable of that name, as Ansible's template
// action does. trim_blocks drops the one newline after the tag: a text
// that starts with a newline keeps its own.
func withTemplateVars(text string) string {
	set := `{% set ansible_managed = '` + managedStr + `' %}`
	if strings.HasPrefix(text, "\n") || strings.HasPrefix(text, "\r") {
		set += "\n"
	}
	return set + text
}

func trailingNewlines(s string) int { return len(s) - len(strings.TrimRight(s, "\n")) }

func (templateModule) Spec() *tasks.Spec { return templateArgs }
