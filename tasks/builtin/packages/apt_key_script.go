package packages

import _ "embed"

// aptKeyFuncs are the helpers of apt_key's scripts. They find apt-key and
// gpg as Ansible's get_bin_path does (fail= when one is missing) and
// print aptkey= and gpg=; when $keydata is set, the key's bytes, which
// arrive on stdin, are kept in $_t_d/key. _t_list lists the keyring's
// public keys as Ansible does: list_rc=, then the blobs list_out and
// list_err.
//
//go:embed apt_key_funcs.sh
var aptKeyFuncs string

// aptKeyProbeScript reads the key's id from $file or the key's bytes
// with gpg --with-colons when $derive is set (gpg_rc=, blobs gpg_out
// and gpg_err), then lists the keys.
//
//go:embed apt_key_probe.sh
var aptKeyProbeScript string

// aptKeyApplyScript adds the key (from $file, from the bytes kept, or
// from $keyserver, tried five times, as Ansible does) or deletes $id, as
// $action says, then lists the keys again: act_rc=, the blobs act_out
// and act_err, then _t_list's output. A proxy for the keyserver comes
// from the environment, as Ansible takes it.
//
//go:embed apt_key_apply.sh
var aptKeyApplyScript string

// aptKeyCheckScript does nothing but apt_key_funcs.sh's checks that the
// host has apt-key and gpg.
//
//go:embed apt_key_check.sh
var aptKeyCheckScript string
