# alternatives: the host's side of the alternatives module. Round probe:
# finds update-alternatives (or RedHat's alternatives), prints the
# expanded $path and $link (blobs path, link), whether $path exists and
# what --display $name shows (rc=, blob display). Round apply: the
# _al_run lines after this text run the planned commands.
LC_ALL=C
export LC_ALL
_al_paths() { # the directories get_bin_path searched, as Ansible reports them
	_p=$PATH
	for _s in /sbin /usr/sbin /usr/local/sbin; do
		case ":$_p:" in *":$_s:"*) ;; *) [ -e "$_s" ] && _p=$_p:$_s ;; esac
	done
	printf '%s' "$_p"
}
_al_echo() { # NAME VALUE: the value as a blob
	printf '%s' "$2" >"$_t_d/x"
	_t_blob "$1" "$_t_d/x"
}
_al_run() { # STEP COMMAND...: run a command; stop on failure
	_al_s=$1
	shift
	"$@" >"$_t_d/o" 2>"$_t_d/e"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo fail=rc
		echo "rc=$rc"
		echo "step=$_al_s"
		_t_blob o "$_t_d/o"
		_t_blob e "$_t_d/e"
		exit 0
	fi
	echo "done=$_al_s"
}
if [ "$round" = probe ]; then
	ua=$(_t_bin update-alternatives) || ua=$(_t_bin alternatives) || {
		printf 'fail=Failed to find required executable "update-alternatives" in paths: %s\n' "$(_al_paths)"
		exit 0
	}
	_al_echo ua "$ua"
	_al_echo path "$path"
	_al_echo link "$link"
	[ -e "$path" ] && echo exists=1
	"$ua" --display "$name" >"$_t_d/o" 2>/dev/null
	echo "rc=$?"
	_t_blob display "$_t_d/o"
	_al_i=0
	for _al_w in "$@"; do
		_al_echo "sub$_al_i" "$_al_w"
		_al_i=$((_al_i + 1))
	done
	echo probed=1
fi
