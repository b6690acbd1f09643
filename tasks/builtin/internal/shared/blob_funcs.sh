
_t_blob() {
	printf '\n--blob %s %s--\n' "$1" "$(wc -c <"$2" | tr -d ' ')"
	cat "$2"
}
_t_bin() { PATH=$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v "$1" 2>/dev/null; }
_t_locale() { # Ansible's get_best_parsable_locale
	_t_loc=C
	if _t_la=$(locale -a 2>/dev/null); then
		for _l in C.utf8 C.UTF-8 en_US.utf8 en_US.UTF-8 C POSIX; do
			if printf '%s\n' "$_t_la" | grep -qx -- "$_l"; then _t_loc=$_l; break; fi
		done
	fi
	export LANG="$_t_loc" LC_ALL="$_t_loc"
}
