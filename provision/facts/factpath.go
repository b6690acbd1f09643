package facts

import (
	"regexp"
	"strings"
	"time"
)

// DefaultFactPath is setup's fact_path when none is given: the directory
// Script reads local facts (ansible_local) from.
const DefaultFactPath = "/etc/ansible/facts.d"

// factPathLine is the line of facts.sh that ScriptFor replaces.
const factPathLine = "\nfact_path=" + DefaultFactPath + "\n"

// ScriptFor returns the fact script reading local facts (ansible_local)
// from the directory factPath, setup's fact_path parameter, instead of
// DefaultFactPath; ScriptFor(DefaultFactPath) is Script.
//
// factPath is the parameter as given: the script expands it on the host
// as Ansible's path type does there (os.path.expanduser of
// os.path.expandvars): $NAME and ${NAME} (NAME of ASCII letters, digits
// and _) become the environment variable's value, left as written when
// it is unset; then a leading ~ or ~user becomes $HOME or the user's
// home directory, left as written for an unknown user. An empty
// factPath reads no local facts (ansible_local is {}), as Ansible has
// it. The directory's name is literal: glob characters in it match
// only themselves. *.fact files whose names hold a newline are skipped.
func ScriptFor(factPath string) string {
	if factPath == DefaultFactPath {
		return Script
	}
	return strings.Replace(Script, factPathLine, "\n"+factPathShell(factPath), 1)
}

// varRef is Python's posixpath._varprog under re.ASCII.
var varRef = regexp.MustCompile(`\$([A-Za-z0-9_]+|\{[^}]*\})`)

// shellName is a name sh can hold a variable under.
var shellName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// factPathShell is sh that sets fact_path to factPath expanded.
func factPathShell(factPath string) string {
	var b strings.Builder
	b.WriteString("fact_path=" + quote("") + "\n")
	last := 0
	for _, m := range varRef.FindAllStringSubmatchIndex(factPath, -1) {
		lit := factPath[last:m[0]]
		last = m[1]
		name := factPath[m[2]:m[3]]
		if strings.HasPrefix(name, "{") {
			name = name[1 : len(name)-1]
		}
		ref := factPath[m[0]:m[1]]
		if lit != "" {
			b.WriteString("fact_path=$fact_path" + quote(lit) + "\n")
		}
		if !shellName.MatchString(name) { // no environment variable a shell reads
			b.WriteString("fact_path=$fact_path" + quote(ref) + "\n")
			continue
		}
		// The environment, not the shell's variables: awk's ENVIRON; the
		// "." keeps trailing newlines.
		b.WriteString("if x=$(awk -v n=" + name + " 'BEGIN { if (n in ENVIRON) { printf \"%s.\", ENVIRON[n]; exit 0 }; exit 1 }' </dev/null 2>/dev/null); " +
			"then fact_path=$fact_path${x%.}; else fact_path=$fact_path" + quote(ref) + "; fi\n")
	}
	if last < len(factPath) {
		b.WriteString("fact_path=$fact_path" + quote(factPath[last:]) + "\n")
	}
	if strings.HasPrefix(factPath, "~") || strings.HasPrefix(factPath, "$") {
		b.WriteString(expandUser)
	}
	return b.String()
}

// expandUser is Python's posixpath.expanduser in sh: "~" is $HOME (from
// the environment; else the user's passwd entry), "~name" the home of
// name's passwd entry, trailing slashes dropped ("/" for none left).
const expandUser = `case $fact_path in
\~*)
	x=${fact_path#?}
	u=${x%%/*}
	x=${x#"$u"}
	h='' found=''
	if [ -z "$u" ] && h=$(awk 'BEGIN { if ("HOME" in ENVIRON) { printf "%s.", ENVIRON["HOME"]; exit 0 }; exit 1 }' </dev/null 2>/dev/null); then
		h=${h%.} found=1
	else
		k=1 # the passwd field to look u up by: the name, or the uid for "~"
		[ -n "$u" ] || { u=$(id -u 2>/dev/null) && k=3; } || u=''
		if [ -n "$u" ] && pw=$(getent passwd "$u" 2>/dev/null); then
			pw=${pw#*:*:*:*:*:}
			h=${pw%%:*} found=1
		elif [ -n "$u" ] && [ -r /etc/passwd ]; then
			while IFS=: read -r f1 _ f3 _ _ f6 _; do
				if { [ $k = 1 ] && [ "$f1" = "$u" ]; } || { [ $k = 3 ] && [ "$f3" = "$u" ]; }; then
					h=$f6 found=1
					break
				fi
			done </etc/passwd
		fi
	fi
	if [ -n "$found" ]; then
		while :; do case $h in */) h=${h%/} ;; *) break ;; esac; done
		fact_path=$h$x
		[ -n "$fact_path" ] || fact_path=/
	fi
	;;
esac
`

// quote makes s one sh word, single-quoted.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// DefaultGatherTimeout is setup's gather_timeout when none is given (or
// 0), in seconds.
const DefaultGatherTimeout = 10

// MountTimeout bounds the script's one stat -f of every mount point where
// a network share (NFS, CIFS, …) is mounted and the host has timeout(1):
// a hung server costs this long, and the mounts stat did not answer for
// have the note "Could not get extra information due to timeout", as in
// Ansible, whose Linux collector gives each mount 10 seconds.
const MountTimeout = 10 * time.Second

// Timeout is how long the engine should let the fact script's round trip
// run for setup's gather_timeout (seconds; DefaultGatherTimeout when 0
// or less): that many seconds plus MountTimeout.
//
// In ansible-core 2.14, gather_timeout bounds the few fact-gathering
// steps wrapped in its timeout decorator, each on its own: on BSD and
// Solaris the mount facts; on Linux nothing at all, because the mount
// facts there read their limit from a module global that gather_timeout
// never sets, so each mount gets 10 seconds whatever gather_timeout says;
// nothing bounds the setup module as a whole (local fact scripts run as
// long as they take). tender gathers everything in one script and cannot
// bound each part, so the engine bounds the whole round trip, with room
// for the one step that waits on purpose (MountTimeout): a host that
// answers in time for Ansible answers in time for tender, unless its
// local fact scripts alone take longer.
func Timeout(gatherTimeout int) time.Duration {
	if gatherTimeout <= 0 {
		gatherTimeout = DefaultGatherTimeout
	}
	return time.Duration(gatherTimeout)*time.Second + MountTimeout
}
