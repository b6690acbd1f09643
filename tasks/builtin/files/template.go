package files

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"unicode/utf8"

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

// Run renders and copies.
func (templateModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := templateArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	failed := func(msg string) (tasks.Result, error) { return shared.FailWith(msg, nil) }
	if a.Has("state") {
		return failed("'state' cannot be specified on a template")
	}
	if !a.Has("src") || !a.Has("dest") {
		return failed("src and dest are required")
	}
	nl := a.Str("newline_sequence")
	switch nl {
	case `\n`, `\r`, `\r\n`:
		nl = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(nl)
	case "\n", "\r", "\r\n":
	default:
		return failed("newline_sequence needs to be one of: \n, \r or \r\n")
	}
	for _, k := range []string{"variable_start_string", "variable_end_string", "block_start_string", "block_end_string", "comment_start_string", "comment_end_string"} {
		if a.Has(k) {
			return failed(fmt.Sprintf("%s is not supported by tender's templates (they use Jinja2's default delimiters)", k))
		}
	}
	if !a.Bool("trim_blocks") || a.Bool("lstrip_blocks") {
		return failed("tender's templates always trim blocks and never lstrip them (trim_blocks: true, lstrip_blocks: false)")
	}
	codec, ok := textCodecs[strings.ToLower(strings.ReplaceAll(a.Str("output_encoding"), "_", "-"))]
	if !ok {
		return failed(fmt.Sprintf("unknown output_encoding: %s (tender writes utf-8, ascii and latin-1)", a.Str("output_encoding")))
	}
	if env.Render == nil {
		return failed("templates cannot be rendered here")
	}
	local, err := env.FindFile("templates", a.Str("src"))
	if err != nil {
		return failed(err.Error())
	}
	if err := env.Sandbox.CheckRead(local); err != nil {
		return tasks.Result{}, err
	}
	fi, err := os.Stat(local)
	if err != nil {
		return failed(fmt.Sprintf("could not find src=%s, %v", local, err))
	}
	text, err := os.ReadFile(local)
	if err != nil {
		return failed(fmt.Sprintf("could not find src=%s, %v", local, err))
	}
	if msg := vaultRefusal(local); msg != "" {
		if env.Decrypt == nil {
			return failed(msg)
		}
		if text, err = decryptFile(env, local); err != nil {
			return failed(err.Error())
		}
	}
	if !utf8.Valid(text) {
		return failed("Template source files must be utf-8 encoded")
	}
	render := env.Render
	if env.RenderFile != nil {
		render = func(text string) (string, error) { return env.RenderFile(text, local) }
	}
	out, err := render(withTemplateVars(string(text)))
	if err != nil {
		return failed(err.Error())
	}
	// Ansible keeps the template's trailing newlines: the output ends in
	// at least as many as the source does.
	if want := trailingNewlines(string(text)); want > trailingNewlines(out) {
		out += strings.Repeat("\n", want-trailingNewlines(out))
	}
	if nl != "\n" {
		out = strings.ReplaceAll(out, "\n", nl)
	}
	b, err := codec.encode([]byte(out))
	if err != nil {
		return failed(err.Error())
	}
	cargs := tasks.Args{}
	for k, v := range args {
		cargs[k] = v
	}
	for _, p := range templateOnly {
		delete(cargs, p.Name)
	}
	delete(cargs, "src")
	cargs["content"] = string(b)
	cargs["_original_basename"] = path.Base(local)
	if m, _ := a["mode"].(string); m == "preserve" {
		cargs["mode"] = fmt.Sprintf("0%03o", fi.Mode().Perm())
	}
	return copyModule{}.Run(ctx, env, cargs)
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
