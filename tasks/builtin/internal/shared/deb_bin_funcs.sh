
_t_need() {
	_t_p=$PATH
	for _t_s in /sbin /usr/sbin /usr/local/sbin; do
		case ":$_t_p:" in *":$_t_s:"*) ;; *) [ -e "$_t_s" ] && _t_p=$_t_p:$_t_s ;; esac
	done
	_t_b=$(PATH=$_t_p command -v "$1" 2>/dev/null) && case $_t_b in /*) return 0 ;; esac
	printf 'fail=Failed to find required executable "%s" in paths: %s\n' "$1" "$_t_p"
	exit 0
}
