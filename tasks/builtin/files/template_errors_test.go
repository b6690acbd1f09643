package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestTemplateErrors: a template file that fails to render fails the
// task with the message of Ansible's template action (recorded from
// ansible-playbook 2.14): the exception's class, then its text, the
// file quoted whole with its last newline.
func TestTemplateErrors(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	env, _ := modtest.TestEnv(t, files, nil)
	se := tasks.ScopeEnv(nil, expr.NewVars(map[string]any{"x": map[string]any{}}))
	env.Render, env.RenderFile = se.Render, se.RenderFile
	for _, c := range []struct{ text, want string }{
		{"{{ nope }}\n", "AnsibleUndefinedVariable: 'nope' is undefined. 'nope' is undefined"},
		{"a\n{{ true < \"x\" }}\n", "AnsibleError: Unexpected templating type error occurred on (a\n{{ true < \"x\" }}\n): " +
			"'<' not supported between instances of 'bool' and 'str'. '<' not supported between instances of 'bool' and 'str'"},
		{"{{ [] | first }}\n", "AnsibleUndefinedVariable: No first item, sequence was empty.. No first item, sequence was empty."},
		{"{{ x.y }}\n", "AnsibleUndefinedVariable: 'dict object' has no attribute 'y'. 'dict object' has no attribute 'y'"},
		{"{{ 1 / 0 }}\n", "ZeroDivisionError: division by zero"},
		{"{{ \"a\" | regex_search(\"(\") }}\n", "error: missing ), unterminated subpattern at position 0"},
		{"{{ lookup(\"file\", \"/nonexist\") }}\n", "AnsibleError: An unhandled exception occurred while running the lookup plugin 'file'. " +
			"Error was a <class 'ansible.errors.AnsibleError'>, original message: could not locate file in lookup: /nonexist. " +
			"could not locate file in lookup: /nonexist"},
	} {
		if err := os.WriteFile(filepath.Join(files, "t.j2"), []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		dest := filepath.Join(dir, "out")
		res := modtest.RunMod(t, env, "template", tasks.Args{"src": "t.j2", "dest": dest})
		if !res.Failed || res.Msg != c.want {
			t.Errorf("%q: %+v\nwant msg %q", c.text, res, c.want)
		}
		if _, err := os.Stat(dest); err == nil {
			t.Errorf("%q: the destination was written", c.text)
		}
	}
}

// TestTemplateNewlineSequence: newline_sequence turns the newlines of the
// template's text into it, not those of the values it renders, and the
// trailing newlines Jinja drops are made up with it by counting "\n" as
// Ansible's templar does (recorded from ansible-playbook 2.14).
func TestTemplateNewlineSequence(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	env, _ := modtest.TestEnv(t, files, nil)
	se := tasks.ScopeEnv(nil, expr.NewVars(map[string]any{"v": "l1\nl2"}))
	env.Render, env.RenderFile = se.Render, se.RenderFile
	text := "A\n{{ v }}\n{% if true %}\nx\n{% endif %}\nend\n\n"
	if err := os.WriteFile(filepath.Join(files, "t.j2"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for nl, want := range map[string]string{
		`\r`:   "A\rl1\nl2\rx\rend\r\r\r",
		`\r\n`: "A\r\nl1\nl2\r\nx\r\nend\r\n\r\n",
		`\n`:   "A\nl1\nl2\nx\nend\n\n",
	} {
		dest := filepath.Join(dir, "out")
		res := modtest.RunMod(t, env, "template", tasks.Args{"src": "t.j2", "dest": dest, "newline_sequence": nl})
		if got := modtest.ReadFile(t, dest); res.Failed || got != want {
			t.Errorf("%s: %+v\n%q, want %q", nl, res, got, want)
		}
	}
}
