package builtin

// aptKeyFuncs are the helpers of apt_key's scripts. They find apt-key and
// gpg as Ansible's get_bin_path does (fail= when one is missing) and
// print aptkey= and gpg=; when $keydata is set, the key's bytes, which
// arrive on stdin, are kept in $_t_d/key. _t_list lists the keyring's
// public keys as Ansible does: list_rc=, then the blobs list_out and
// list_err.
const aptKeyFuncs = `
export LC_ALL=C
_t_need apt-key
_t_ak=$_t_b
_t_need gpg
_t_gpg=$_t_b
printf 'aptkey=%s\ngpg=%s\n' "$_t_ak" "$_t_gpg"
[ -z "$keydata" ] || cat >"$_t_d/key"
_t_akr() { # apt-key with the keyring option
	if [ -n "$keyring" ]; then "$_t_ak" --keyring "$keyring" "$@"; else "$_t_ak" "$@"; fi
}
_t_list() {
	_t_akr adv --list-public-keys --keyid-format=long >"$_t_d/lo" 2>"$_t_d/le" </dev/null
	echo "list_rc=$?"
	_t_blob list_out "$_t_d/lo"
	_t_blob list_err "$_t_d/le"
}
`

// aptKeyProbeScript reads the key's id from $file or the key's bytes
// with gpg --with-colons when $derive is set (gpg_rc=, blobs gpg_out
// and gpg_err), then lists the keys.
const aptKeyProbeScript = `
if [ -n "$derive" ]; then
	if [ -n "$keydata" ]; then
		"$_t_gpg" --with-colons - <"$_t_d/key" >"$_t_d/go" 2>"$_t_d/ge"
	else
		"$_t_gpg" --with-colons "$file" >"$_t_d/go" 2>"$_t_d/ge" </dev/null
	fi
	echo "gpg_rc=$?"
	_t_blob gpg_out "$_t_d/go"
	_t_blob gpg_err "$_t_d/ge"
fi
_t_list
echo done=1
`

// aptKeyApplyScript adds the key (from $file, from the bytes kept, or
// from $keyserver, tried five times, as Ansible does) or deletes $id, as
// $action says, then lists the keys again: act_rc=, the blobs act_out
// and act_err, then _t_list's output. A proxy for the keyserver comes
// from the environment, as Ansible takes it.
const aptKeyApplyScript = `
: >"$_t_d/ao"; : >"$_t_d/ae"
case $action in
file) _t_akr add "$file" >"$_t_d/ao" 2>"$_t_d/ae" </dev/null; _t_rc=$? ;;
data) _t_akr add - <"$_t_d/key" >"$_t_d/ao" 2>"$_t_d/ae"; _t_rc=$? ;;
del) _t_akr del "$id" >"$_t_d/ao" 2>"$_t_d/ae" </dev/null; _t_rc=$? ;;
recv)
	_t_px=
	for _t_v in "$HTTPS_PROXY" "$https_proxy" "$HTTP_PROXY" "$http_proxy"; do [ -n "$_t_v" ] && { _t_px=$_t_v; break; }; done
	set -- adv --no-tty --keyserver "$keyserver"
	[ -z "$_t_px" ] || set -- "$@" --keyserver-options "http-proxy=$_t_px"
	printf 'proxy=%s\n' "$_t_px"
	_t_loc=C # Ansible's get_best_parsable_locale
	if _t_la=$(locale -a 2>/dev/null); then
		for _t_l in C.utf8 C.UTF-8 en_US.utf8 en_US.UTF-8 C POSIX; do
			if printf '%s\n' "$_t_la" | grep -qx -- "$_t_l"; then _t_loc=$_t_l; break; fi
		done
	fi
	printf 'loc=%s\n' "$_t_loc"
	_t_i=0
	while [ $_t_i -lt 5 ]; do
		(export LANG="$_t_loc" LC_ALL="$_t_loc" LC_MESSAGES="$_t_loc"; _t_akr "$@" --recv "$id") >"$_t_d/ao" 2>"$_t_d/ae" </dev/null
		_t_rc=$?
		[ $_t_rc -eq 0 ] && break
		_t_i=$((_t_i + 1))
	done
	;;
esac
echo "act_rc=$_t_rc"
_t_blob act_out "$_t_d/ao"
_t_blob act_err "$_t_d/ae"
_t_list
echo done=1
`
