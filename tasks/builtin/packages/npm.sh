# npm's helpers; the steps npmJob writes follow them (npm_script.go).
# _n_exe WORD: checks the program the command lines start with, as
# exec would find it; noexec=2 (missing) or 13 (not executable) and the
# end when it cannot run
_n_exe() {
	case $1 in
	*/*)
		if [ ! -e "$1" ]; then echo noexec=2; exit 0; fi
		if [ -d "$1" ] || [ ! -x "$1" ]; then echo noexec=13; exit 0; fi
		;;
	*) command -v "$1" >/dev/null 2>&1 || { echo noexec=2; exit 0; } ;;
	esac
}
# _n_path DIR MAKE: makes DIR when missing (when MAKE is 1), fails when it
# is no directory, and enters it; sets _n_nodir when it is missing and
# not made
_n_path() {
	_n_nodir=
	if [ ! -e "$1" ] && [ "$2" = 1 ]; then
		mkdir -p -- "$1" || { printf 'msgfail=cannot make the directory %s\n' "$1"; exit 0; }
	fi
	if [ ! -e "$1" ]; then
		_n_nodir=1
		return
	fi
	[ -d "$1" ] || { printf 'msgfail=path %s is not a directory\n' "$1"; exit 0; }
	cd -- "$1" || { printf 'msgfail=cannot enter %s\n' "$1"; exit 0; }
}
