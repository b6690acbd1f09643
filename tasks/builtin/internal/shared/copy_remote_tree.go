package shared

import _ "embed"

// remoteTreeFunc copies the host's directory $source to $dest (remote_src
// with a directory) as Ansible's copy module does: "dir" lands as
// dest/dir, "dir/" copies its contents into dest. Each file is compared by
// checksum and replaced (cp -p, through a temporary name) only when it
// differs; owner and group apply to everything copied; mode applies only
// to the destination Ansible reports (dest, or dest/basename when dest was
// already a directory), as in Ansible. Links are kept as links unless
// $lfollow (local_follow given true) asks to copy what they point at. It
// prints verdict=tree, reported
// (that destination), changed and its _t_info, and exits the script.
//
//go:embed remote_tree_func.sh
var remoteTreeFunc string
