
_t_exists() { [ -e "$1" ] || [ -L "$1" ]; }
_t_glob() { (IFS=; for _f in $1; do _t_exists "$_f" && exit 0; done; exit 1); }
_t_sum() {
	case $1 in
	md5) md5sum "$2" ;; sha1) sha1sum "$2" ;; sha224) sha224sum "$2" ;;
	sha256) sha256sum "$2" ;; sha384) sha384sum "$2" ;; sha512) sha512sum "$2" ;;
	esac 2>/dev/null | { read -r _s _; echo "$_s"; }
}
