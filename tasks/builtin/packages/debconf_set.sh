# Sets one debconf answer with debconf-set-selections (-u when $unseen is
# set). The selection line is the script's standard input, so the value
# is never on a command line or in the environment.
command -v debconf-set-selections >/dev/null 2>&1 || {
	echo 'fail=Failed to find required executable "debconf-set-selections" in paths: '"$PATH"
	exit 0
}
set -- debconf-set-selections
if [ -n "$unseen" ]; then set -- "$@" -u; fi
"$@" >"$_t_d/o" 2>"$_t_d/e" || echo fail=rc
_t_tail
