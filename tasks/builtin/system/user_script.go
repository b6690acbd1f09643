package system

import _ "embed"

// userScript adds, changes or removes the user $name in one run. It uses
// useradd/usermod/userdel where the host has them and busybox's adduser,
// deluser and delgroup (Alpine) where it does not, as Ansible's user
// module picks its User or BusyBox class. A password hash arrives in
// $T_PW (exported by the script text, never on a command line); before any
// command runs it is moved into the shell variable $_pw, out of the
// commands' environment, and it is set with chpasswd -e, which reads it on
// stdin.
//
// It prints changed=, rc= and fail= verdict lines, then the account as it
// is (uid, gid, gecos, home, shell), then the commands' output (_t_tail).
//
//go:embed user.sh
var userScript string
