package system

import _ "embed"

// userScript adds, changes or removes the user $name in one run. It uses
// useradd/usermod/userdel where the host has them and busybox's adduser,
// deluser and delgroup (Alpine) where it does not, as Ansible's user
// module picks its User or BusyBox class. A password hash ($pw_set) is
// the script's standard input, read into the shell variable $_pw: it is
// never on a command line or in an environment, and it is set with
// chpasswd -e, which reads it on its own stdin.
//
// It prints changed=, rc= and fail= verdict lines, then the account as it
// is (uid, gid, gecos, home, shell), then the commands' output (_t_tail).
//
//go:embed user.sh
var userScript string
