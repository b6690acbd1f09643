
export LC_ALL=C
_t_find() { # a tool's path, as Ansible's get_bin_path finds it
	_t_p=$PATH
	for _t_s in /sbin /usr/sbin /usr/local/sbin; do
		case ":$_t_p:" in *":$_t_s:"*) ;; *) [ -e "$_t_s" ] && _t_p=$_t_p:$_t_s ;; esac
	done
	_t_f=$(PATH=$_t_p command -v "$1" 2>/dev/null) || return 1
	case $_t_f in /*) printf '%s\n' "$_t_f" ;; *) return 1 ;; esac
}
_t_apt() {
	_t_dq=$(_t_find dpkg-query) || return 1
	echo found=apt
	echo "native=$(dpkg --print-architecture 2>/dev/null)"
	if ! "$_t_dq" -W -f='${db:Status-Abbrev}\t${Package}\t${Version}\t${Architecture}\t${Section}\n' >"$_t_d/dpkg" 2>"$_t_d/err"; then
		_t_blob dpkg_err "$_t_d/err"
		return 0
	fi
	_t_blob dpkg "$_t_d/dpkg"
	_t_ac=$(_t_find apt-cache) || return 0
	"$_t_ac" policy >"$_t_d/files" 2>/dev/null && _t_blob files "$_t_d/files"
	awk -F '\t' -v n="$(dpkg --print-architecture 2>/dev/null)" '
		substr($1, 2, 1) != "n" && substr($1, 2, 1) != "c" { print ($4 == n || $4 == "all") ? $2 : $2 ":" $4 }' "$_t_d/dpkg" >"$_t_d/names"
	if [ -s "$_t_d/names" ]; then
		xargs "$_t_ac" policy <"$_t_d/names" >"$_t_d/policy" 2>/dev/null
		_t_blob policy "$_t_d/policy"
	fi
	return 0
}
_t_rpm() {
	_t_rp=$(_t_find rpm) || return 1
	echo found=rpm
	if ! "$_t_rp" -qa --qf '%{NAME}\t%{VERSION}\t%{RELEASE}\t%{EPOCH}\t%{ARCH}\n' >"$_t_d/rpm" 2>"$_t_d/err"; then
		_t_blob rpm_err "$_t_d/err"
		return 0
	fi
	_t_blob rpm "$_t_d/rpm"
}
_t_native="rpm apt"
grep -Eqs '^(ID|ID_LIKE)=.*(debian|ubuntu)' /etc/os-release && _t_native="apt rpm"
set -f
set --
for m in $managers; do
	case $m in @native) set -- "$@" $_t_native ;; *) set -- "$@" "$m" ;; esac
done
echo "order=$*"
found=0 seen=' '
for m in "$@"; do
	[ "$found" -gt 0 ] && [ "$strategy" = first ] && break
	case $seen in *" $m "*) continue ;; esac
	seen="$seen$m "
	case $m in
	apt) _t_apt && found=$((found + 1)) ;;
	rpm) _t_rpm && found=$((found + 1)) ;;
	*)
		case $m in portage) _t_cli=qlist ;; *) _t_cli=$m ;; esac
		if _t_f=$(_t_find "$_t_cli"); then echo "unsupported=$m $_t_f"; exit 0; fi
		;;
	esac
done
echo done=1
