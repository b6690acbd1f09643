
# Inputs: $np path words then the exclude_path words as "$@", $dest.
# Prints, one a line: "p PATH" per path word and "d DEST" as the host
# expanded them, "g" when a path is
# a glob, "e PATH" per expanded path, "x PATH" per expanded exclude path,
# then per source path left: "t m|d|f PATH" (missing, directory,
# other) and, for a directory, its walk as "w d|f PATH" lines in the
# order Python's os.walk gives them; pi_ (the joined path) and ps_ (the
# only source path) _t_info lines.
_aw=$(mktemp -d) || exit 1
trap 'rm -rf "$_aw"' EXIT
_ajoin() { # dir name: the two joined with one slash
	case $1 in '') printf '%s\n' "$2" ;; */) printf '%s%s\n' "$1" "$2" ;; *) printf '%s/%s\n' "$1" "$2" ;; esac
}
_aglob() { # pattern: its matches in the order Python's glob gives them
	_gp=$1
	case $_gp in /*) _gc=/ ;; *) _gc= ;; esac
	_gt=; case $_gp in */) _gt=1 ;; esac
	_gifs=$IFS; IFS=/; set -f
	# shellcheck disable=SC2086 # the pattern's components
	set -- $_gp
	IFS=$_gifs; set +f
	_gfirst=1
	for _gcomp in "$@"; do
		[ -n "$_gcomp" ] || continue
		_gn=$(printf '%s\n' "$_gc" | while IFS= read -r _gd; do
			[ -n "$_gfirst" ] || [ -n "$_gd" ] || continue
			case $_gcomp in
			*[*?[]*)
				_gl=${_gd:-.}
				[ -d "$_gl" ] || continue
				find -H "$_gl" -mindepth 1 -maxdepth 1 2>/dev/null | while IFS= read -r _ge; do
					_gb=${_ge##*/}
					case $_gcomp in .*) ;; *) case $_gb in .*) continue ;; esac ;; esac
					# shellcheck disable=SC2254 # the component is a pattern
					case $_gb in $_gcomp) _ajoin "$_gd" "$_gb" ;; esac
				done ;;
			*)
				_gj=$(_ajoin "$_gd" "$_gcomp")
				if [ -e "$_gj" ] || [ -L "$_gj" ]; then printf '%s\n' "$_gj"; fi ;;
			esac
		done)
		_gc=$_gn; _gfirst=
		[ -n "$_gc" ] || return 0
	done
	[ -z "$_gfirst" ] || return 0
	printf '%s\n' "$_gc" | while IFS= read -r _gd; do
		[ -n "$_gd" ] || continue
		if [ -n "$_gt" ]; then [ -d "$_gd" ] && printf '%s/\n' "$_gd"; else printf '%s\n' "$_gd"; fi
	done
}
_ai=0; joined=
for _ap in "$@"; do
	_ai=$((_ai + 1))
	[ "$_ai" -le "$np" ] || break
	printf 'p %s\n' "$_ap"
	if [ "$_ai" -eq 1 ]; then joined=$_ap; else joined="$joined, $_ap"; fi
done
[ -z "$dest" ] || printf 'd %s\n' "$dest"
_ai=0
for _ap in "$@"; do
	_ai=$((_ai + 1))
	_ak=e; [ "$_ai" -le "$np" ] || _ak=x
	case $_ap in
	*[*?]*)
		[ "$_ak" = x ] || echo g
		_aglob "$_ap" | sed "s/^/$_ak /" ;;
	*) printf '%s %s\n' "$_ak" "$_ap" ;;
	esac
done >"$_aw/exp"
cat "$_aw/exp"
# the source paths: expanded, less the excluded, each once
awk '/^x / { x[substr($0, 3)] = 1 } /^e / { e[substr($0, 3)] = 1 } END { for (p in e) if (!(p in x)) print p }' "$_aw/exp" >"$_aw/src"
_an=0
while IFS= read -r _ap; do
	_an=$((_an + 1)); _aone=$_ap
	if [ ! -e "$_ap" ] && [ ! -L "$_ap" ]; then printf 't m %s\n' "$_ap"; continue; fi
	if [ ! -d "$_ap" ]; then printf 't f %s\n' "$_ap"; continue; fi
	printf 't d %s\n' "$_ap"
	find -H "$_ap" -mindepth 1 >"$_aw/all" 2>/dev/null
	find -H "$_ap" -mindepth 1 -type d >"$_aw/dirs" 2>/dev/null
	find -H "$_ap" -mindepth 1 -type l 2>/dev/null | while IFS= read -r _al; do
		[ -d "$_al" ] && printf '%s\n' "$_al"
	done >"$_aw/ldirs"
	_atop=$_ap
	while :; do case $_atop in */) _atop=${_atop%/} ;; *) break ;; esac; done
	awk -v top="$_atop" -v fa="$_aw/all" -v fd="$_aw/dirs" -v fl="$_aw/ldirs" '
	function up(p,   i) { for (i = length(p); i > 0; i--) if (substr(p, i, 1) == "/") return substr(p, 1, i - 1); return "" }
	function walk(d,   i, n, c) {
		n = cnt[d]
		for (i = 1; i <= n; i++) { c = kid[d, i]; if (c in isdir) print "w d " c }
		for (i = 1; i <= n; i++) { c = kid[d, i]; if (!(c in isdir)) print "w f " c }
		for (i = 1; i <= n; i++) { c = kid[d, i]; if ((c in isdir) && !(c in islink)) walk(c) }
	}
	BEGIN {
		while ((getline p < fd) > 0) isdir[p] = 1
		while ((getline p < fl) > 0) { isdir[p] = 1; islink[p] = 1 }
		while ((getline p < fa) > 0) { d = up(p); kid[d, ++cnt[d]] = p }
		walk(top)
	}'
done <"$_aw/src"
_t_info "$joined" | sed 's/^/pi_/'
[ "$_an" -ne 1 ] || _t_info "$_aone" | sed 's/^/ps_/'
