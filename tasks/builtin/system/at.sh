# Inputs: $state, $count, $units, $unique, $script_file, $command with
# $hascmd (the command goes to a temporary file, which then stands for
# the script file). $@: the words of the script file's name in at's
# command line. Prints at_bin=, sf= (the script file), changed=, or
# fail= (a message), or fail=rc with what= (atq, c, r or f), job=, rc=
# (argv=: the words of the script file's name, joined by \037, for f)
# and _t_tail's output of that command.
at_bin=$(command -v at) || { echo "fail=Failed to find required executable \"at\" in paths: $PATH"; exit 0; }
printf 'at_bin=%s\n' "$at_bin"
if [ "$state" = present ] && { [ -z "$count" ] || [ "$count" = 0 ] || [ -z "$units" ]; }; then
	echo 'fail=present state requires count and units'
	exit 0
fi
sf=$script_file
if [ -n "$hascmd" ]; then
	sf=$(mktemp "${TMPDIR:-/tmp}/atXXXXXXXX") || exit 1
	trap 'rm -rf "$_t_d" "$sf"' EXIT
	printf '%s\n' "$command" >"$sf"
	set -- "$sf"
fi
printf 'sf=%s\n' "$sf"
_a_do() { "$@" </dev/null >"$_t_d/o" 2>"$_t_d/e"; rc=$?; return $rc; }
_a_fail() { echo fail=rc; echo "what=$1"; echo "job=$2"; echo "rc=$rc"; _t_tail; exit 0; }
# _a_jobs writes to $_t_d/m the numbers of the queued jobs that hold the
# script file's text (without its surrounding white space).
_a_jobs() {
	: >"$_t_d/m"
	atq_bin=$(command -v atq) || { echo "fail=Failed to find required executable \"atq\" in paths: $PATH"; exit 0; }
	printf 'atq_bin=%s\n' "$atq_bin"
	_a_do "$atq_bin" || _a_fail atq ""
	cp "$_t_d/o" "$_t_d/q"
	[ -s "$_t_d/q" ] || return 0
	if ! [ -r "$sf" ] || [ -d "$sf" ]; then
		_e=$(_t_open_err "$sf")
		[ -d "$sf" ] && _e='Is a directory'
		printf 'pyerr=%s\n' "$_e"
		exit 0
	fi
	while read -r _j _; do
		[ -n "$_j" ] || continue
		_a_do "$at_bin" -c "$_j" || _a_fail c "$_j"
		_a_f=$sf awk 'BEGIN {
			f = ENVIRON["_a_f"]
			while ((getline l < f) > 0) n = n (c++ ? "\n" : "") l
			sub(/^[ \t\n\r\f\v]+/, "", n); sub(/[ \t\n\r\f\v]+$/, "", n)
		}
		{ h = h (NR > 1 ? "\n" : "") $0 }
		END { exit !(n == "" || index(h, n) > 0) }' "$_t_d/o" && printf '%s\n' "$_j" >>"$_t_d/m"
	done <"$_t_d/q"
}
if [ "$state" = absent ]; then
	changed=0
	_a_jobs
	while read -r _j; do
		_a_do "$at_bin" -r "$_j" || _a_fail r "$_j"
		changed=1
	done <"$_t_d/m"
	echo "changed=$changed"
	exit 0
fi
if [ -n "$unique" ]; then
	_a_jobs
	[ ! -s "$_t_d/m" ] || { echo changed=0; exit 0; }
fi
if ! _a_do "$at_bin" -f "$@" now + "$count" "$units"; then
	printf 'argv='
	_s=
	for _w in "$@"; do printf '%s%s' "$_s" "$_w"; _s=$(printf '\037'); done
	echo
	_a_fail f ""
fi
echo changed=1
