package expr

import (
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/yaml11"
)

// Ansible's jinja2_native setting (DEFAULT_JINJA2_NATIVE, Env.Native):
// a playbook template's output is joined by ansible_native_concat instead
// of ansible_eval_concat. The differences, all in how the output becomes
// the result:
//   - nothing output is None, not "";
//   - one piece of output that is not text is the result as it is, and None
//     stays None (the native environment's finalize keeps it), so that
//     "{{ n }}" is n and "{{ 5 + 1 }}" is the integer 6;
//   - text (one piece, or several joined, None written "None") is read as a
//     Python literal whatever it starts with, JSON's names not included:
//     "{{ '12' }}" is 12, "{{ a }},{{ b }}" a tuple; text that reads as a
//     string keeps the quote character it started with around the string.
//   - the output of a string-type filter (string, to_json, …) stays text.
// Template files (the template module) and the template lookup without
// its jinja2_native option keep the non-native environment.

// nativeConcat is ansible_native_concat.
func (ev *evaluator) nativeConcat(o *output) (any, error) {
	switch o.n {
	case 0:
		return nil, nil
	case 1:
		switch v := o.first.(type) {
		case nativeText, nativeUnsafe, omitValue:
			return v, nil
		case string:
			return ev.nativeEval(v)
		case yaml11.Unsafe:
			c, err := ev.nativeEval(string(v))
			if s, isText := c.(string); isText && err == nil {
				return yaml11.Unsafe(s), nil
			}
			return unsafeDeep(c), err
		case Keyed:
			return materialize(v)
		case Scope:
			return unwatch(v), nil
		default:
			return v, nil
		}
	}
	return ev.nativeEval(o.b.String())
}

// nativeEval is the native concat's last step: literal_eval of the text,
// the text itself when Python does not read it as a literal; a string
// read back is put between the text's first character, twice.
func (ev *evaluator) nativeEval(s string) (any, error) {
	v, ok, err := parseLiteral(s, false)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return s, nil
	}
	if str, isText := v.(string); isText {
		q, _ := utf8.DecodeRuneInString(s)
		return string(q) + str + string(q), nil
	}
	// a list or a dict read back from the output is new
	if err := ev.st.b.alloc(newBytes(v, true, []any{s})); err != nil {
		return nil, ev.limit(err)
	}
	return v, nil
}
