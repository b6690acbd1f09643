package provision

import (
	"context"
	"fmt"
	"os/user"
	"sync"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// connSpec is what a task's connection adds to the host's: become and
// the environment, both rendered in the task's scope.
type connSpec struct {
	become *transport.Become
	env    map[string]string
}

// conn returns the connection a task uses on h: the host's own, or the
// delegate's, with become and the task's environment applied; and what
// it added to the host's connection.
func (pr *playRun) conn(ctx context.Context, h *hostRun, kw keywords, scope *expr.Vars) (transport.Conn, connSpec, error) {
	var c transport.Conn
	var err error
	var via connSpec
	switch kw.delegateTo {
	case "":
		c, err = h.connect(ctx, pr.rn, scope, ConnKeywords{User: kw.remoteUser, Connection: kw.connection, Port: kw.port})
		if err == nil {
			c = &aheadConn{Conn: c, pr: pr, h: h}
		}
	case "localhost", "127.0.0.1", "::1":
		c, err = pr.rn.localConn(ctx)
	default:
		c, err = pr.rn.delegate(ctx, pr, kw.delegateTo)
	}
	if err != nil {
		return nil, via, err
	}
	// Connection variables (inventory, -e) override the become keywords,
	// as every variable overrides a keyword in Ansible.
	become := kw.become
	if v, ok, err := scope.Lookup("ansible_become"); err != nil {
		return nil, via, err
	} else if ok {
		if become, err = tasks.ParseBool(v); err != nil {
			return nil, via, fmt.Errorf("ansible_become: %w", err)
		}
	}
	if become {
		pw, ok, err := lookupStr(scope, "ansible_become_password", "ansible_become_pass")
		if err != nil {
			return nil, via, err
		}
		if !ok {
			pw = pr.rn.r.Defaults.BecomePassword
		}
		user, method := kw.becomeUser, kw.becomeMethod
		if u, ok, err := lookupStr(scope, "ansible_become_user"); err != nil {
			return nil, via, err
		} else if ok {
			user = u
		}
		if m, ok, err := lookupStr(scope, "ansible_become_method"); err != nil {
			return nil, via, err
		} else if ok {
			method = m
		}
		if method, err = becomeMethod(method); err != nil {
			return nil, via, err
		}
		via.become = &transport.Become{Method: method, User: user, Password: pw, Flags: kw.becomeFlags, Exe: kw.becomeExe}
		if f, ok, err := lookupStr(scope, "ansible_become_flags"); err != nil {
			return nil, via, err
		} else if ok {
			via.become.Flags = f
		}
		if e, ok, err := lookupStr(scope, "ansible_become_exe"); err != nil {
			return nil, via, err
		} else if ok {
			via.become.Exe = e
		}
		same, err := pr.becomesSameUser(scope, kw, user)
		if err != nil {
			return nil, via, err
		}
		if same {
			// Already that user: no sudo, as Ansible does not use become
			// to become the login user (unless become_allow_same_user).
			via.become = nil
		} else {
			c = transport.WithBecome(c, via.become)
		}
	}
	if len(kw.environment) > 0 {
		if via.env, err = pr.envVars(kw.environment, scope, kw.gathersFacts); err != nil {
			return nil, via, err
		}
		c = withEnv(c, via.env)
	}
	return c, via, nil
}

// becomesSameUser reports whether become would make the task's login user
// become itself (become_user, root by default, is the remote user the
// variables or remote_user name), which Ansible skips unless
// BECOME_ALLOW_SAME_USER. On the local connection (ansible_connection or
// connection: local, delegate_to localhost) the login user is the one
// tender runs as, as Ansible's local connection takes it. A login left to
// ssh config is not known to be the same; nor is a delegate's other than
// localhost.
func (pr *playRun) becomesSameUser(scope expr.Scope, kw keywords, becomeUser string) (bool, error) {
	if allow, err := pr.rn.r.config().Setting("BECOME_ALLOW_SAME_USER"); err == nil && allow == true {
		return false, nil
	}
	var login string
	switch local, err := pr.onLocal(scope, kw); {
	case err != nil:
		return false, err
	case local:
		login = localUser()
	case kw.delegateTo != "":
		return false, nil
	default:
		var ok bool
		if login, ok, err = lookupStr(scope, "ansible_user", "ansible_ssh_user", "ansible_remote_user"); err != nil {
			return false, err
		}
		if !ok {
			login = kw.remoteUser
		}
	}
	if becomeUser == "" {
		becomeUser = "root"
	}
	return login != "" && login == becomeUser, nil
}

// onLocal reports whether the task runs on the local connection: delegated
// to localhost, or on a host whose connection (ansible_connection, else
// the connection keyword) is local.
func (pr *playRun) onLocal(scope expr.Scope, kw keywords) (bool, error) {
	switch kw.delegateTo {
	case "":
	case "localhost", "127.0.0.1", "::1":
		return true, nil
	default:
		return false, nil
	}
	conns := pr.rn.r.Connections
	c, ok, err := lookupStr(scope, "ansible_connection")
	if err != nil || ok {
		return conns.IsLocal(c), err
	}
	return conns.IsLocal(kw.connection), nil
}

// localUser is the name of the user tender runs as ("" when it cannot be
// told).
func localUser() string {
	localUserOnce.Do(func() {
		if u, err := user.Current(); err == nil {
			localUserName = u.Username
		}
	})
	return localUserName
}

var (
	localUserOnce sync.Once
	localUserName string
)

func lookupStr(scope expr.Scope, names ...string) (string, bool, error) {
	for _, n := range names {
		v, ok, err := scope.Lookup(n)
		if err != nil {
			return "", false, err
		}
		if ok && v != nil {
			return expr.Str(v), true, nil
		}
	}
	return "", false, nil
}
