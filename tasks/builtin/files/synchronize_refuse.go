package files

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
)

// syncBridgeRefusal is why a task rsync runs for over tender's own
// connection (not delegated) cannot be done as asked: Ansible's rsync
// would log in with its own ssh, and dest_port, private_key and the
// ssh_args that say where or as whom to log in would change where the
// files go. Those are refused when they differ from the connection's;
// the rest of ssh's options (timeouts, logging, multiplexing, host key
// checking) tune a login tender's connection has already made, so they
// change nothing. "" when nothing is refused.
func syncBridgeRefusal(env *tasks.Env, a tasks.Values) string {
	const how = "tender's synchronize reaches the host over the task's own connection; set the host's connection variables instead, or delegate the task"
	if a.Has("dest_port") {
		port := syncVar(env, "ansible_port")
		if port == "" {
			port = "22"
		}
		if strconv.Itoa(a.Int("dest_port")) != port {
			return fmt.Sprintf("dest_port %d differs from the connection's port %s: %s", a.Int("dest_port"), port, how)
		}
	}
	if k := a.Str("private_key"); k != "" {
		conn := syncVar(env, "ansible_ssh_private_key_file")
		if conn == "" {
			conn = syncVar(env, "ansible_private_key_file")
		}
		if conn == "" || filepath.Clean(k) != filepath.Clean(conn) {
			return fmt.Sprintf("private_key %s is not the connection's key: %s", k, how)
		}
	}
	words, err := shlex.Split(a.Str("ssh_args"))
	if err != nil {
		return "ssh_args: " + err.Error()
	}
	for i, w := range words {
		if opt := syncDestinationArg(w, words, i); opt != "" {
			return fmt.Sprintf("ssh_args %s would change where or as whom rsync logs in: %s", opt, how)
		}
	}
	return ""
}

// syncDestinationArg names the ssh option at words[i] that chooses the
// host, port, user, identity or route of a login ("" for another).
func syncDestinationArg(w string, words []string, i int) string {
	for _, f := range []string{"-p", "-i", "-l", "-J", "-F", "-b", "-B"} {
		if strings.HasPrefix(w, f) {
			return w
		}
	}
	o := ""
	switch {
	case w == "-o" && i+1 < len(words):
		o = words[i+1]
	case strings.HasPrefix(w, "-o"):
		o = w[2:]
	default:
		return ""
	}
	key, _, _ := strings.Cut(strings.ReplaceAll(strings.TrimSpace(o), " ", "="), "=")
	switch strings.ToLower(key) {
	case "port", "user", "hostname", "identityfile", "identitiesonly", "certificatefile", "proxyjump",
		"proxycommand", "bindaddress", "bindinterface", "hostkeyalias":
		return "-o " + o
	}
	return ""
}
