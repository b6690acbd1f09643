package ssh

import (
	"fmt"
	"path"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/transport"
)

// Names of the variables holding a target's ssh arguments, for messages.
const (
	commonArgsVar = "ansible_ssh_common_args"
	extraArgsVar  = "ansible_ssh_extra_args"
)

// The options of Ansible's ssh connection plugin that the ssh type takes
// (Dialer.Params): the engine reads them into Target.Options, from the
// host's variables (ansible_ssh_common_args, ...), the environment,
// ansible.cfg or the command line, and leaves out ssh_args at its
// default (compression and OpenSSH's connection sharing, which tender's
// one connection per host does not need).
const (
	OptArgs       = "ssh_args"
	OptCommonArgs = "ssh_common_args"
	OptExtraArgs  = "ssh_extra_args"
)

// Establish names the login user, "None" when ssh config or the
// controller's user decides it, as Ansible's ssh connection does.
func (d *Dialer) Establish(t transport.Target) string {
	user := t.User
	if user == "" {
		user = "None"
	}
	return "ESTABLISH SSH CONNECTION FOR USER: " + user
}

// Params are the variables the ssh type reads: Ansible's for every
// connection that logs in to an address, and its ssh arguments.
func (d *Dialer) Params() transport.ConnParams {
	p := transport.DefaultParams
	p.PluginOptions = []string{OptArgs, OptCommonArgs, OptExtraArgs}
	return p
}

// argText returns t's ssh arguments as ssh's command line gets them:
// ssh_args, then ssh_common_args (as one, named by the common args'
// variable in messages), and ssh_extra_args.
func argText(t transport.Target) (common, extra string) {
	opt := func(name string) string { s, _ := t.Options[name].(string); return s }
	return strings.TrimSpace(opt(OptArgs) + " " + opt(OptCommonArgs)), opt(OptExtraArgs)
}

// targetArgs reads t's ssh arguments: its common args, then its extra
// args, as Ansible puts them on ssh's command line (where the first value
// of an option wins).
func targetArgs(t transport.Target) (options, error) {
	common, extraText := argText(t)
	o, err := parseArgs(commonArgsVar, common)
	if err != nil {
		return nil, err
	}
	extra, err := parseArgs(extraArgsVar, extraText)
	if err != nil {
		return nil, err
	}
	for k, v := range extra {
		o[k] = append(o[k], v...)
	}
	return o, nil
}

// parseArgs reads the ssh options tender honours out of the ssh arguments
// in the variable name: -o Key=Value, -o 'Key Value', -oKey=Value, -J
// jumps, -p port, -l user and -i identity. Other flags are ignored, as
// are -o keys tender does not use. Keys are returned lower-cased.
func parseArgs(name, s string) (options, error) {
	words, err := shlex.Split(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	o := options{}
	add := func(k, v string) {
		k = strings.ToLower(k)
		o[k] = append(o[k], v)
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if len(w) < 2 || w[0] != '-' {
			continue
		}
		flag, val := w[1], w[2:]
		if !strings.ContainsRune("oJpliFcmbEeSWDLRQwBIO", rune(flag)) {
			continue // a flag without an argument (-q, -4, -C, ...)
		}
		if val == "" {
			if i+1 >= len(words) {
				return nil, fmt.Errorf("%s: -%c needs an argument", name, flag)
			}
			i++
			val = words[i]
		}
		switch flag {
		case 'o':
			k, v, ok := strings.Cut(val, "=")
			if !ok {
				k, v, ok = strings.Cut(strings.TrimSpace(val), " ")
			}
			if !ok {
				return nil, fmt.Errorf("%s: bad option %q", name, val)
			}
			add(strings.TrimSpace(k), strings.TrimSpace(v))
		case 'J':
			add("proxyjump", val)
		case 'p':
			add("port", val)
		case 'l':
			add("user", val)
		case 'i':
			add("identityfile", val)
		}
	}
	return o, nil
}

// proxyCommandJump turns the usual bastion ProxyCommand, "ssh -W %h:%p
// [options] [user@]bastion", into the equivalent ProxyJump element. Other
// proxy commands are refused rather than silently bypassed.
func proxyCommandJump(pc string) (string, error) {
	words, err := shlex.Split(pc)
	refuse := fmt.Errorf("ProxyCommand %q is not supported: use ProxyJump (ssh -W %%h:%%p bastion is understood)", pc)
	if err != nil || len(words) == 0 || path.Base(words[0]) != "ssh" {
		return "", refuse
	}
	var user, port, dest string
	forward := false
	for i := 1; i < len(words); i++ {
		w := words[i]
		if len(w) < 2 || w[0] != '-' {
			if dest != "" {
				return "", refuse // a remote command
			}
			dest = w
			continue
		}
		flag, val := w[1], w[2:]
		if !strings.ContainsRune("oJpliFcmbEeSWDLRQwBIO", rune(flag)) {
			continue
		}
		if val == "" && i+1 < len(words) {
			i++
			val = words[i]
		}
		switch flag {
		case 'W':
			forward = val == "%h:%p" || val == "[%h]:%p"
		case 'l':
			user = val
		case 'p':
			port = val
		}
	}
	if !forward || dest == "" {
		return "", refuse
	}
	if user != "" && !strings.Contains(dest, "@") {
		dest = user + "@" + dest
	}
	if port != "" {
		dest += ":" + port
	}
	return dest, nil
}
