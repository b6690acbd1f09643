
_t_d=$(mktemp -d) || exit 1
trap 'rm -rf "$_t_d"' EXIT
_t_failf() { _t_blob fail "$1"; exit 0; } # the message is the file's text
_t_fail() { printf '%s' "$*" >"$_t_d/m"; _t_failf "$_t_d/m"; }
_t_paths() { printf '%s' "$PATH:/sbin:/usr/sbin:/usr/local/sbin"; }
rpm=$(_t_bin rpm) || _t_fail 'Failed to find required executable "rpm" in paths: '"$(_t_paths)"
gpg=$(_t_bin gpg) || gpg=$(_t_bin gpg2) || _t_fail 'Failed to find required executable "gpg2" in paths: '"$(_t_paths)"
_t_gpg() { # file, extra options: gpg's colon listing of the keys in file
	"$gpg" --no-tty --batch --with-colons --fixed-list-mode "$@" >"$_t_d/g" 2>"$_t_d/ge" || _t_failf "$_t_d/ge"
}
keyfile=
case $kind in
url) keyfile=$_t_d/key; cat >"$keyfile" ;;
keyid) keyid=$key ;;
*) [ -f "$key" ] || _t_fail "Not a valid key $key"; keyfile=$key ;;
esac
if [ -n "$keyfile" ]; then
	_t_gpg "$keyfile"
	keyid=$(awk '{ sub(/^[ \t]+/, "") } /^pub:/ { split($0, f, ":"); print f[5]; exit }' "$_t_d/g")
	grep -q '^[[:space:]]*pub:' "$_t_d/g" || _t_fail "Unexpected gpg output"
fi
keyid=$(printf '%s' "$keyid" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | tr '[:lower:]' '[:upper:]')
case $keyid in 0X*) keyid=${keyid#0X} ;; esac
imported=
if "$rpm" -q gpg-pubkey >/dev/null 2>&1; then
	"$rpm" -q gpg-pubkey --qf '%{description}' 2>/dev/null | "$gpg" --no-tty --batch --with-colons --fixed-list-mode - >"$_t_d/i" 2>"$_t_d/ie" ||
		_t_failf "$_t_d/ie"
	while IFS= read -r _l; do
		_f5=$(printf '%s' "$_l" | cut -d: -f5)
		case $_f5 in *"$keyid"*) imported=1; break ;; esac
	done <"$_t_d/i"
fi
if [ "$state" = present ]; then
	[ -n "$imported" ] && { echo changed=0; exit 0; }
	[ -n "$keyfile" ] || _t_fail "When importing a key, a valid file must be given"
	if [ -n "$fingerprint" ]; then
		_t_gpg --with-fingerprint "$keyfile"
		has=$(awk '{ sub(/^[ \t]+/, "") } /^fpr:/ { split($0, f, ":"); print f[10]; exit }' "$_t_d/g")
		grep -q '^[[:space:]]*fpr:' "$_t_d/g" || _t_fail "Unexpected gpg output"
		[ "$has" = "$fingerprint" ] ||
			_t_fail "The specified fingerprint, '$fingerprint', does not match the key fingerprint '$has'"
	fi
	if [ -z "$_t_check" ]; then
		"$rpm" --import "$keyfile" >/dev/null 2>"$_t_d/e" || _t_failf "$_t_d/e"
	fi
	echo changed=1
else
	[ -n "$imported" ] || { echo changed=0; exit 0; }
	if [ -z "$_t_check" ]; then
		short=$(printf '%s' "$keyid" | tail -c 8 | tr '[:upper:]' '[:lower:]')
		"$rpm" --erase --allmatches "gpg-pubkey-$short" >/dev/null 2>"$_t_d/e" || _t_failf "$_t_d/e"
	fi
	echo changed=1
fi
