package expr

import (
	"strings"
)

// jinjaOverride is the first-line header by which a template sets its
// own environment, as Ansible reads it: "#jinja2: trim_blocks: False,
// lstrip_blocks: True".
const jinjaOverride = "#jinja2:"

// withOverrides returns src without its #jinja2: header line and d with
// the settings that line makes: trim_blocks, lstrip_blocks and the
// markers, each a Python literal (True, False, a quoted string). A
// setting tender's templates do not have is refused, so that no header
// is read and ignored.
func withOverrides(src string, d *delims) (string, *delims, error) {
	if !strings.HasPrefix(src, jinjaOverride) {
		return src, d, nil
	}
	line, rest, _ := strings.Cut(src[len(jinjaOverride):], "\n")
	out := *d
	for _, pair := range strings.Split(line, ",") {
		key, val, ok := strings.Cut(pair, ":")
		if !ok {
			return "", nil, errorf("failed to parse jinja2 override '%s'. Did you use something different from colon as key-value separator?", strings.TrimSpace(pair))
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "trim_blocks", "lstrip_blocks":
			b, ok := pyBoolLiteral(val)
			if !ok {
				return "", nil, errorf("jinja2 override %s: %s is not True or False", key, val)
			}
			if key == "trim_blocks" {
				out.noTrimBlocks = !b
			} else {
				out.lstripBlocks = b
			}
		case "variable_start_string", "variable_end_string", "block_start_string", "block_end_string",
			"comment_start_string", "comment_end_string":
			s, ok := pyStrLiteral(val)
			if !ok || s == "" {
				return "", nil, errorf("jinja2 override %s: %s is not a quoted, non-empty string", key, val)
			}
			if err := out.set(map[string]string{key: s}); err != nil {
				return "", nil, err
			}
		case "line_statement_prefix":
			s, ok := pyStrLiteral(val)
			if !ok || s == "" {
				return "", nil, errorf("jinja2 override %s: %s is not a quoted, non-empty string", key, val)
			}
			out.lineStatement = s
		default:
			return "", nil, errorf("jinja2 override %s is not supported by tender's templates (trim_blocks, lstrip_blocks, line_statement_prefix and the markers are)", key)
		}
	}
	return rest, &out, nil
}

// pyBoolLiteral reads True or False.
func pyBoolLiteral(s string) (bool, bool) {
	switch s {
	case "True":
		return true, true
	case "False":
		return false, true
	}
	return false, false
}

// pyStrLiteral reads a single- or double-quoted string with no escapes
// or quotes inside.
func pyStrLiteral(s string) (string, bool) {
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] {
		return "", false
	}
	inner := s[1 : len(s)-1]
	if strings.ContainsAny(inner, "\\'\"") {
		return "", false
	}
	return inner, true
}

// lineStatements turns each line that starts (after spaces and tabs) with
// d's line statement prefix into a tag, as Jinja reads such a line: the
// rest of the line is the tag's content, and the line with its newline
// is gone from the output.
func lineStatements(src string, d *delims) string {
	if d.lineStatement == "" || !strings.Contains(src, d.lineStatement) {
		return src
	}
	var b strings.Builder
	for line := range strings.SplitAfterSeq(src, "\n") {
		body := strings.TrimLeft(line, " \t\v")
		if rest, ok := strings.CutPrefix(body, d.lineStatement); ok {
			b.WriteString(d.blockStart + " " + strings.TrimRight(rest, " \t\v\r\n") + " " + d.blockEnd)
			if d.noTrimBlocks {
				continue // the tag took its line's newline
			}
			b.WriteString("\n") // which trim_blocks then takes
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
