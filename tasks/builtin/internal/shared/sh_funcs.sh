
_t_exists() { [ -e "$1" ] || [ -L "$1" ]; }
_t_glob() { (IFS=; for _f in $1; do _t_exists "$_f" && exit 0; done; exit 1); }
_t_sum() {
	case $1 in
	md5) md5sum <"$2" ;; sha1) sha1sum <"$2" ;; sha224) sha224sum <"$2" ;;
	sha256) sha256sum <"$2" ;; sha384) sha384sum <"$2" ;; sha512) sha512sum <"$2" ;;
	esac 2>/dev/null | { read -r _s _; echo "$_s"; }
}
# _t_open_err P prints why P cannot be opened for reading (the C library's
# text, as Python's OSError.strerror), nothing when it can: a directory
# opens. _t_stat_err P prints why stat(P), following links, fails.
_t_open_err() { LC_ALL=C head -c 0 -- "$1" 2>&1 >/dev/null | sed -n '$s/.*: //p'; }
_t_stat_err() { LC_ALL=C ls -dL -- "$1" 2>&1 >/dev/null | sed -n '$s/.*: //p'; }
