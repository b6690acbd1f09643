package expr

import (
	"strings"
	"testing"
)

// TestJinjaOverrideHeader: a #jinja2: first line sets trim_blocks,
// lstrip_blocks and markers for the template and is not output; a
// setting tender does not have, or a malformed pair, is an error.
func TestJinjaOverrideHeader(t *testing.T) {
	for src, want := range map[string]string{
		"#jinja2: trim_blocks: False\n{% if true %}\nx{% endif %}":                             "\nx",
		"#jinja2:lstrip_blocks:True\n  {% if true %}\nx\n  {% endif %}\ny":                     "x\ny",
		"#jinja2: variable_start_string: '<<', variable_end_string: '>>'\n<< 1 + 1 >> {{ x }}": "2 {{ x }}",
		"#jinja2 is only a comment when it has no colon\n":                                     "#jinja2 is only a comment when it has no colon\n",
	} {
		tp, err := ParseFileTemplate(src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		v, err := tp.Render(NewVars(map[string]any{}))
		if err != nil || Str(v) != want {
			t.Errorf("%q: got %q, %v; want %q", src, Str(v), err, want)
		}
	}
	for src, want := range map[string]string{
		"#jinja2: newline_sequence: '\\r\\n'\nx": "newline_sequence is not supported",
		"#jinja2: trim_blocks False\nx":          "failed to parse jinja2 override 'trim_blocks False'",
		"#jinja2: trim_blocks: yes\nx":           "is not True or False",
	} {
		if _, err := ParseFileTemplate(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}
