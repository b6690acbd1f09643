
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
