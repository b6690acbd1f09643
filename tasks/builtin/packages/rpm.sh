
export LANG=C LC_ALL=C
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit 0; }
command -v "$tool" >/dev/null 2>&1 || _t_fail "Failed to find required executable \"$tool\" in paths: $PATH"
command -v rpm >/dev/null 2>&1 || _t_fail "Failed to find required executable \"rpm\" in paths: $PATH"
tmp=$(mktemp -d) || _t_fail "could not create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
qf='%{NAME}-%|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}.%{ARCH}\n'
_t_nevra() { _o=$(rpm -q --qf "$qf" -- "$1" 2>/dev/null) && printf '%s\n' "$_o"; }
oldifs=$IFS; IFS='
'
set -f
if [ -n "$update" ] && [ -z "$_t_check" ]; then
	"$tool" -q -y $opts makecache >"$tmp/mc" 2>&1 || _t_fail "Failed to update the package cache: $(cat "$tmp/mc")"
fi
[ -n "$update" ] && [ -z "$names" ] && { echo verdict=cache; exit 0; }
install= upgrade= remove= failed= availq= updq= updspec=
for s in $names; do
	case $s in
	*.rpm)
		[ -f "$s" ] || { echo "failure=No package $s available."; failed=1; continue; }
		[ "$state" != absent ] && echo "file=$s"
		want=$(rpm -qp --qf "$qf" -- "$s" 2>/dev/null) || { echo "failure=$s: not a readable rpm"; failed=1; continue; }
		n=$(rpm -qp --qf '%{NAME}' -- "$s" 2>/dev/null)
		have=$(_t_nevra "$n")
		case $state in
		absent) [ -n "$have" ] && remove="$remove$n
" ;;
		*) case "
$have
" in *"
$want
"*) ;; *) install="$install$s
" ;; esac ;;
		esac
		continue ;;
	esac
	have=$(_t_nevra "$s")
	case $state in
	absent) [ -n "$have" ] && remove="$remove$s
" ;;
	latest)
		if [ -z "$have" ]; then availq="$availq$s
"
		elif [ "$(printf '%s\n' "$have" | head -n1 | sed 's/-[^-]*-[^-]*$//')" = "$s" ]; then updq="$updq$s
"
		else updspec="$updspec$s
"; fi ;;
	*) [ -n "$have" ] || availq="$availq$s
" ;;
	esac
done
# What the repositories offer: one call for all the names (the lines
# "name.arch version repo" name them); a spec the listing does not name
# (name-version, or one no repository has) is asked alone.
_t_names() { awk '/^[^ \t]/ && NF >= 3 { n = $1; sub(/\.[^.]*$/, "", n); print n }'; }
if [ -n "$availq" ]; then
	"$tool" -q $opts list available -- $availq 2>/dev/null | _t_names >"$tmp/avail"
	for s in $availq; do
		if grep -qxF -- "$s" "$tmp/avail" || "$tool" -q $opts list available -- "$s" >/dev/null 2>&1; then install="$install$s
"
		else echo "failure=No package $s available."; failed=1; fi
	done
fi
if [ -n "$updq" ]; then
	"$tool" -q $opts check-update -- $updq >"$tmp/cu" 2>/dev/null; urc=$?
	_t_names <"$tmp/cu" >"$tmp/upd"
	for s in $updq; do
		if [ $urc -eq 100 ] && grep -qxF -- "$s" "$tmp/upd"; then upgrade="$upgrade$s
"
		elif [ $urc -ne 0 ] && [ $urc -ne 100 ]; then updspec="$updspec$s
"; fi
	done
fi
for s in $updspec; do
	"$tool" -q $opts check-update -- "$s" >/dev/null 2>&1
	[ $? -eq 100 ] && upgrade="$upgrade$s
"
done
[ -n "$failed" ] && { echo verdict=failures; exit 0; }
if [ -z "$install$upgrade$remove" ] && [ -z "$autoremove" ]; then echo verdict=nothing; exit 0; fi
if [ -n "$_t_check" ]; then
	echo verdict=check
	for s in $install$upgrade; do echo "installed=$s"; done
	for s in $remove; do echo "removed=$(_t_nevra "$s" | head -n1)"; done
	exit 0
fi
rpm -qa --qf "$qf" | sort >"$tmp/before"
depqf='[req=%{=NAME}\t%{REQUIRENAME}\n][prov=%{=NAME}\t%{PROVIDENAME}\n]'
[ -n "$deps" ] && [ -n "$remove" ] && rpm -qa --qf "$depqf" >"$tmp/deps"
# Ansible's dnf removes what the packages needed only with autoremove.
cro=False; [ -n "$autoremove" ] && cro=True
rc=0
: >"$tmp/out"; : >"$tmp/err"
if [ -n "$install" ]; then "$tool" -y $opts install -- $install >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
if [ $rc -eq 0 ] && [ -n "$upgrade" ]; then "$tool" -y $opts upgrade -- $upgrade >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
if [ $rc -eq 0 ] && [ -n "$remove" ]; then "$tool" -y $opts --setopt=clean_requirements_on_remove=$cro remove -- $remove >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
if [ $rc -eq 0 ] && [ -n "$autoremove" ] && [ -z "$names" ]; then "$tool" -y $opts autoremove >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
rpm -qa --qf "$qf" | sort >"$tmp/after"
echo verdict=ran; echo "rc=$rc"
comm -13 "$tmp/before" "$tmp/after" | sed 's/^/installed=/'
comm -23 "$tmp/before" "$tmp/after" | sed 's/^/removed=/'
if [ -n "$deps" ]; then
	{ comm -3 "$tmp/before" "$tmp/after" | sed 's/^\t//; s/-[^-]*-[^-]*$//'; } | sort -u >"$tmp/changed"
	if [ "$(wc -l <"$tmp/changed")" -gt 1 ]; then
		rpm -qa --qf "$depqf" >>"$tmp/deps"
		awk -F '[=\t]' 'NR == FNR { c[$0] = 1; next } $2 in c' "$tmp/changed" "$tmp/deps" | sort -u
	fi
fi
echo "outlen=$(wc -c <"$tmp/out")"
echo --output--; cat "$tmp/out" "$tmp/err"
