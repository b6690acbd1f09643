oldifs=$IFS; IFS='
'
set -f
if [ -n "$update" ] && [ -z "$_t_check" ]; then
	"$tool" -q -y $opts makecache >"$tmp/mc" 2>&1 || _t_fail "Failed to update the package cache: $(cat "$tmp/mc")"
fi
[ -n "$update" ] && [ -z "$names" ] && { echo verdict=cache; exit 0; }
install= upgrade= remove= failed= availq= updq= updspec=
# name=* with state=latest upgrades every installed package, as Ansible's
# dnf (upgrade_all): "check-update" says whether there is anything to do.
if [ "$names" = '*' ] && [ "$state" = latest ]; then
	"$tool" -q $opts $secopts check-update >"$tmp/cu" 2>"$tmp/cuerr"; urc=$?
	[ $urc -eq 0 ] && { echo verdict=nothing; exit 0; }
	[ $urc -eq 100 ] || _t_fail "$(cat "$tmp/cuerr")"
	names= upgrade='*'
fi
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
"*) ;; *) _t_newer "$(printf %s "$want" | head -n1)" && [ -z "$downgrade" ] || install="$install$s
" ;; esac ;;
		esac
		continue ;;
	esac
	have=$(_t_nevra "$s")
	# Packages dnf does not see (exclude) are not there for it.
	if [ -n "$have" ] && [ -n "$visible" ] && [ -z "$("$tool" -q $opts repoquery --installed -- "$s" 2>/dev/null)" ]; then have=; fi
	st=$state
	if [ "$st" != absent ]; then
		# name-version-release older than what is installed: only with
		# allow_downgrade, as Ansible's dnf.
		if _t_newer "$s"; then
			[ -n "$downgrade" ] && install="$install$s
"
			continue
		fi
		if [ -n "$updateonly" ]; then
			[ -n "$have" ] || { echo "notinst=$s"; continue; }
			st=latest
		fi
	fi
	case $st in
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
# (name-version, or one no repository has) is asked alone. With security
# or bugfix, only what an advisory names is offered.
_t_names() { awk '/^[^ \t]/ && NF >= 3 { n = $1; sub(/\.[^.]*$/, "", n); print n }'; }
if [ -n "$availq" ] && [ -n "$secopts" ]; then
	for s in $availq; do
		if [ -n "$("$tool" -q $opts $secopts repoquery -- "$s" 2>/dev/null)" ]; then install="$install$s
"
		else _t_missing "$s"; fi
	done
elif [ -n "$availq" ]; then
	"$tool" -q $opts list available -- $availq 2>/dev/null | _t_names >"$tmp/avail"
	for s in $availq; do
		if grep -qxF -- "$s" "$tmp/avail" || "$tool" -q $opts list available -- "$s" >/dev/null 2>&1; then install="$install$s
"
		else _t_missing "$s"; fi
	done
fi
if [ -n "$updq" ]; then
	"$tool" -q $opts $secopts check-update -- $updq >"$tmp/cu" 2>/dev/null; urc=$?
	_t_names <"$tmp/cu" >"$tmp/upd"
	for s in $updq; do
		if [ $urc -eq 100 ] && grep -qxF -- "$s" "$tmp/upd"; then upgrade="$upgrade$s
"
		elif [ $urc -ne 0 ] && [ $urc -ne 100 ]; then updspec="$updspec$s
"; fi
	done
fi
for s in $updspec; do
	"$tool" -q $opts $secopts check-update -- "$s" >/dev/null 2>&1
	[ $? -eq 100 ] && upgrade="$upgrade$s
"
done
[ -n "$failed" ] && { echo verdict=failures; exit 0; }
if [ -z "$install$upgrade$remove" ] && [ -z "$autoremove" ]; then echo verdict=nothing; exit 0; fi
[ -n "$dl" ] && echo dl=1
if [ -n "$_t_check" ]; then
	echo verdict=check
	if [ "$upgrade" = '*' ]; then _t_names <"$tmp/cu" | sed 's/^/installed=/'
	else for s in $install$upgrade; do echo "installed=$s"; done; fi
	for s in $remove; do echo "removed=$(_t_nevra "$s" | head -n1)"; done
	exit 0
fi
_t_rpm -qa --qf "$qf" | sort >"$tmp/before"
depqf='[req=%{=NAME}\t%{REQUIRENAME}\n][prov=%{=NAME}\t%{PROVIDENAME}\n]'
[ -n "$deps" ] && [ -n "$remove" ] && _t_rpm -qa --qf "$depqf" >"$tmp/deps"
# Ansible's dnf removes what the packages needed only with autoremove.
cro=False; [ -n "$autoremove" ] && cro=True
# With security or bugfix, an upgrade goes as far as the advisories say
# (upgrade-minimal), as Ansible's dnf filters its upgrades.
up=upgrade; [ -n "$secopts" ] && up='upgrade-minimal'
# download_only changes something when dnf downloads a package or the
# download directory's rpms change (dnf copies a local repository's).
_t_dirsum() { [ -z "$dldir" ] || [ ! -d "$dldir" ] || (cd "$dldir" && find . -maxdepth 1 -type f -name '*.rpm' -exec md5sum {} + | sort); }
[ -n "$dl" ] && _t_dirsum >"$tmp/dlbefore" 2>/dev/null
rc=0
: >"$tmp/out"; : >"$tmp/err"
if [ -n "$install" ]; then "$tool" -y $opts $secopts $iopts install -- $install >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
if [ "$upgrade" = '*' ]; then "$tool" -y $opts $secopts $iopts $up >>"$tmp/out" 2>>"$tmp/err" || rc=$?
elif [ $rc -eq 0 ] && [ -n "$upgrade" ]; then "$tool" -y $opts $secopts $iopts $up -- $upgrade >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
if [ -n "$dl" ]; then
	# Nothing is installed: the transactions dnf printed say what.
	echo verdict=ran; echo "rc=$rc"
	if sed -n '/^Downloading Packages:/,/^Complete!/p' "$tmp/out" | grep '\.rpm' | grep -qv '^\[SKIPPED\]' ||
		! _t_dirsum 2>/dev/null | cmp -s - "$tmp/dlbefore"; then echo dlchanged=1; fi
	_t_table "$tmp/out" | while IFS= read -r l; do
		case $l in old=*) echo "removed=$(_t_nevra "${l#old=}" | head -n1)" ;; *) echo "$l" ;; esac
	done
	[ $rc -ne 0 ] || for s in $remove; do echo "removed=$(_t_nevra "$s" | head -n1)"; done
	echo "outlen=$(wc -c <"$tmp/out")"
	echo --output--; cat "$tmp/out" "$tmp/err"
	exit 0
fi
if [ $rc -eq 0 ] && [ -n "$remove" ]; then "$tool" -y $opts --setopt=clean_requirements_on_remove=$cro remove -- $remove >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
if [ $rc -eq 0 ] && [ -n "$autoremove" ] && [ -z "$names" ]; then "$tool" -y $opts autoremove >>"$tmp/out" 2>>"$tmp/err" || rc=$?; fi
_t_rpm -qa --qf "$qf" | sort >"$tmp/after"
echo verdict=ran; echo "rc=$rc"
comm -13 "$tmp/before" "$tmp/after" | sed 's/^/installed=/'
comm -23 "$tmp/before" "$tmp/after" | sed 's/^/removed=/'
if [ -n "$deps" ]; then
	{ comm -3 "$tmp/before" "$tmp/after" | sed 's/^\t//; s/-[^-]*-[^-]*$//'; } | sort -u >"$tmp/changed"
	if [ "$(wc -l <"$tmp/changed")" -gt 1 ]; then
		_t_rpm -qa --qf "$depqf" >>"$tmp/deps"
		awk -F '[=\t]' 'NR == FNR { c[$0] = 1; next } $2 in c' "$tmp/changed" "$tmp/deps" | sort -u
	fi
fi
echo "outlen=$(wc -c <"$tmp/out")"
echo --output--; cat "$tmp/out" "$tmp/err"
