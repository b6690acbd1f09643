package shared

import (
	"regexp"
	"strings"
)

// The command lines that Ansible's modules report when a command they
// ran failed (run_command's check_rc): the words cleaned of what looks
// like a password, each quoted as shlex.quote does, joined by spaces.

// pyPasswdArg is ansible-core's PASSWD_ARG_RE: a word that names a
// password option (its value, after = or in the next word, is hidden).
var pyPasswdArg = regexp.MustCompile(`^-{0,2}pass-?(word|wd)?`)

// PyCleanArgs is the command line argv as ansible-core's
// AnsibleModule._clean_args reports it: a word after a password option
// (or its value after =) becomes ********, a password in a URL is hidden
// by pySanitize, and the words are quoted and joined.
func PyCleanArgs(argv []string) string {
	out := make([]string, 0, len(argv))
	hideNext := false
	for _, a := range argv {
		if hideNext {
			hideNext = false
			out = append(out, Q("********"))
			continue
		}
		if pyPasswdArg.MatchString(a) {
			if i := strings.IndexByte(a, '='); i >= 0 {
				out = append(out, Q(a[:i]+"=********"))
				continue
			}
			hideNext = true
		}
		out = append(out, Q(PySanitize(a)))
	}
	return strings.Join(out, " ")
}

// PySanitize is ansible-core's heuristic_log_sanitize: it hides what
// looks like the password of a URL (scheme://user:PASSWORD@host) or of
// an ssh-style address (user:PASSWORD@host), scanning from the end as it
// does.
func PySanitize(data string) string {
	var output []string
	begin := len(data)
	prevBegin := begin
	for {
		end := strings.LastIndex(data[:begin], "@")
		if end < 0 {
			output = append([]string{data[:begin]}, output...)
			break
		}
		sep := -1
		sepSearchEnd := end
		for sep < 0 {
			begin = strings.LastIndex(data[:sepSearchEnd], "://")
			if begin < 0 {
				begin = 0
			}
			if begin+3 <= end {
				if i := strings.IndexByte(data[begin+3:end], ':'); i >= 0 {
					sep = begin + 3 + i
					break
				}
			}
			if begin == 0 {
				output = append([]string{data[:prevBegin]}, output...)
				break
			}
			sepSearchEnd = begin
		}
		if sep < 0 {
			break
		}
		output = append([]string{data[begin : sep+1], "********", data[end:prevBegin]}, output...)
		prevBegin = begin
	}
	return strings.Join(output, "")
}
