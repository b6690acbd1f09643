
export DEBIAN_FRONTEND=noninteractive DEBIAN_PRIORITY=critical LANG=C LC_ALL=C LC_MESSAGES=C LC_CTYPE=C
_t_fail() { echo verdict=failed; [ -n "$2" ] && echo cache=1; printf 'msg=%s\n' "$(printf %s "$1" | tr '\n' ' ')"; exit 0; }
# _t_mtime VAR FORMAT: in $VAR the cache's time, as stat's FORMAT prints
# it (stat started straight from the command substitution: one fork).
_t_mtime() {
	if [ -e /var/lib/apt/periodic/update-success-stamp ]; then _t_mf=/var/lib/apt/periodic/update-success-stamp
	elif [ -e /var/lib/apt/lists ]; then _t_mf=/var/lib/apt/lists
	else eval "$1=0"; return 0; fi
	eval "$1=\$(stat -c \"\$2\" \"\$_t_mf\")"
}
# _t_onpath VAR NAME: in $VAR the path command -v gives NAME, a program
# on $PATH (an empty element the current directory, given as NAME alone,
# as dash gives it), found without a subshell; status 1 where there is
# none.
_t_onpath() {
	_t_pr=$PATH
	while :; do
		_t_pd=${_t_pr%%:*}
		if [ -f "${_t_pd:-.}/$2" ] && [ -x "${_t_pd:-.}/$2" ]; then
			if [ -n "$_t_pd" ]; then eval "$1=\$_t_pd/\$2"; else eval "$1=\$2"; fi
			return 0
		fi
		case $_t_pr in *:*) _t_pr=${_t_pr#*:} ;; *) return 1 ;; esac
	done
}
tmp= prcon= prcbak=
# $upload, when set, is the directory of a deb sent from the controller.
trap '_t_prc_off; [ -z "$tmp" ] || rm -rf -- "$tmp"; [ -z "$upload" ] || rm -rf -- "$upload"; printf %s "${__tender_cs-}"' EXIT
# _t_prc_on, _t_prc_off: with policy_rc_d, /usr/sbin/policy-rc.d exits
# with that code while apt-get or dpkg runs (so that maintainer scripts do
# not start services), as Ansible's PolicyRcD does; a file already there
# is put aside and back. Simulations run no maintainer script: skipped.
_t_prc_on() {
	[ -n "$policy" ] && [ -z "$_t_check" ] || return 0
	_t_tmp
	if [ -e /usr/sbin/policy-rc.d ] || [ -L /usr/sbin/policy-rc.d ]; then
		prcbak=$tmp/policy-rc.d
		mv /usr/sbin/policy-rc.d "$prcbak" || _t_fail "Fail to move /usr/sbin/policy-rc.d to $tmp"
	fi
	prcon=1
	{ printf '#!/bin/sh\nexit %s\n' "$policy" >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d; } 2>/dev/null ||
		_t_fail "Failed to create or chmod /usr/sbin/policy-rc.d"
}
_t_prc_off() {
	[ -n "$prcon" ] || return 0
	prcon=
	if [ -n "$prcbak" ]; then mv "$prcbak" /usr/sbin/policy-rc.d || _t_fail "Fail to move back $prcbak to /usr/sbin/policy-rc.d"
	else rm -f /usr/sbin/policy-rc.d || _t_fail "Fail to remove /usr/sbin/policy-rc.d (after package manipulation)"; fi
}
# _t_ran VERDICT RC: the verdict of a command whose output is in
# $tmp/out and $tmp/err.
_t_ran() {
	echo "verdict=$1"; echo "rc=$2"
	echo "outlen=$(wc -c <"$tmp/out")"; echo "errlen=$(wc -c <"$tmp/err")"
	echo --output--; cat "$tmp/out" "$tmp/err"
	exit 0
}
_t_onpath aptget apt-get || _t_fail "Failed to find required executable apt-get in paths: $PATH"
# _t_tmp makes the temporary directory ($tmp) the first time a branch
# needs one (never in a subshell): a task that finds nothing to do
# starts no mktemp and no rm.
_t_tmp() { [ -n "$tmp" ] || tmp=$(mktemp -d) || _t_fail "could not create a temporary directory"; }
lockopt="-o DPkg::Lock::Timeout=$locktime"
# clean comes first, before the cache, as Ansible's: apt-get clean, then
# the task goes on as if clean were not there (alone, it is a task with
# nothing to do). Not in check mode.
if [ -n "$clean" ] && [ -z "$_t_check" ]; then
	_t_tmp
	"$aptget" clean >"$tmp/out" 2>"$tmp/err" </dev/null || _t_fail "apt-get clean failed"
	[ -s "$tmp/err" ] && _t_fail "apt-get clean failed: $(cat "$tmp/err")"
fi
# Cache: updated when asked and older than cache_valid_time, retried with
# a growing pause as Ansible does. Ansible compares to the microsecond, so
# without cache_valid_time it updates even when the last update was in the
# same second (only a cache time in the future, a clock set back, spares
# it); whole seconds must not skip that update. Whether the update changed
# the cache is told by its time to the nanosecond (%y), so that an update
# in the same second as the last one still says so.
# One stat for both: the whole seconds, then the time to the nanosecond.
_t_mtime cstamp '%Y %y'
updated= now=
ctime=${cstamp%% *} cstamp=${cstamp#* }
[ -z "$update" ] || now=$(date +%s)
if [ -n "$update" ] && { [ "$valid" -le 0 ] && [ "$ctime" -le "$now" ] || [ $((ctime + valid)) -lt "$now" ]; }; then
	if [ -z "$_t_check" ]; then
		i=0 delay=1 ok=
		_t_tmp
		while [ "$i" -lt "$retries" ]; do
			if "$aptget" $lockopt update -q >"$tmp/uout" 2>"$tmp/uerr"; then ok=1; break; fi
			i=$((i + 1))
			[ "$i" -lt "$retries" ] || break
			[ "$delay" -gt "$maxdelay" ] && delay=$maxdelay
			sleep "$delay"; delay=$((delay * 2))
		done
		[ -n "$ok" ] || _t_fail "Failed to update apt cache: $(grep -E '^(E|W):' "$tmp/uerr" | head -n 5)"
		grep -q '^[WE]:' "$tmp/uerr" && _t_fail "Failed to update apt cache: $(grep -E '^(E|W):' "$tmp/uerr" | head -n 5)"
	fi
	_t_mtime _t_ns %y
	if [ -n "$_t_check" ] || [ "$_t_ns" != "$cstamp" ]; then updated=1; fi
	_t_mtime ctime %Y
fi
echo "cache_updated=$updated"
echo "cache_update_time=$ctime"
if [ -z "$specs" ] && [ -z "$deb" ] && [ -z "$upgrade" ] && [ -n "$update" ]; then echo verdict=cacheonly; exit 0; fi

# upgrade (or name=* with state=latest): apt-get dist-upgrade for dist and
# full, upgrade --with-new-pkgs for yes and safe, as Ansible's apt does
# without aptitude.
if [ -n "$upgrade" ]; then
	[ -n "$allfail" ] && _t_fail "unable to install additional packages when upgrading all installed packages"
	set -- $lockopt
	_t_oldifs=$IFS; IFS=,
	for o in $dpkgopts; do set -- "$@" -o "Dpkg::Options::=--$o"; done
	IFS=$_t_oldifs
	[ -n "$force" ] && set -- "$@" --force-yes
	[ -n "$noremove" ] && set -- "$@" --no-remove
	[ -n "$unauth" ] && set -- "$@" --allow-unauthenticated
	[ -n "$downgrade" ] && set -- "$@" --allow-downgrades
	[ -n "$_t_check" ] && set -- "$@" --simulate
	case $upgrade in
	dist | full) set -- "$@" dist-upgrade; what="dist-upgrade " ;;
	*) set -- "$@" upgrade --with-new-pkgs; what="upgrade --with-new-pkgs " ;;
	esac
	[ -n "$autoremove" ] && { set -- "$@" --auto-remove; what="$what--auto-remove"; }
	[ -n "$release" ] && set -- "$@" -t "$release"
	echo "cmd=$aptget $what"
	_t_prc_on
	_t_tmp
	"$aptget" -y "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	_t_prc_off
	_t_ran upgraded $rc
fi

dopts=
set --
_t_oldifs=$IFS; IFS=,
for o in $dpkgopts; do dopts="$dopts -o \"Dpkg::Options::=--$o\""; set -- "$@" -o "Dpkg::Options::=--$o"; done
IFS=$_t_oldifs
dopts=${dopts# }
if [ -z "$specs" ] && [ -z "$deb" ] && [ -z "$autoremove$autoclean" ]; then echo verdict=noop; exit 0; fi
if [ -z "$specs" ] && [ -z "$deb" ]; then # autoclean or autoremove alone
	op=autoremove
	[ -n "$autoclean" ] && op=autoclean
	[ -n "$purge" ] && set -- "$@" --purge
	[ -n "$force" ] && set -- "$@" --force-yes
	set -- "$@" $op
	[ -n "$_t_check" ] && set -- "$@" --simulate
	_t_prc_on
	_t_tmp
	"$aptget" -y $lockopt "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	_t_prc_off
	if [ $rc -ne 0 ]; then
		_t_fail "'apt-get $op' failed: $(cat "$tmp/err")"
	fi
	echo "op=$op"
	echo verdict=cleaned; echo --output--; cat "$tmp/out"; exit 0
fi

if [ -n "$deb" ]; then
	[ -e "$deb" ] || { echo verdict=upload; exit 0; }
	_t_tmp
	dname=$(dpkg --field "$deb" Package 2>"$tmp/err") || _t_fail "$(command -v dpkg) --field $deb Package failed"
	dver=$(dpkg --field "$deb" Version 2>"$tmp/err") || _t_fail "$(command -v dpkg) --field $deb Version failed"
	cur=$(dpkg-query -W -f='${db:Status-Abbrev}|${Version}' "$dname" 2>/dev/null)
	case $cur in ?i*) dpkg --compare-versions "${cur#*|}" eq "$dver" && { echo verdict=noop; exit 0; } ;; esac
	opts=
	_t_oldifs=$IFS; IFS=,
	set --
	for o in $dpkgopts; do opts="$opts --$o"; set -- "$@" "--$o"; done
	IFS=$_t_oldifs
	[ -n "$_t_check" ] && { opts="$opts --simulate"; set -- "$@" --simulate; }
	[ -n "$force" ] && { opts="$opts --force-all"; set -- "$@" --force-all; }
	echo "cmd=dpkg$opts -i $deb"
	_t_prc_on
	dpkg "$@" -i "$deb" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	_t_prc_off
	echo verdict=ran; echo "rc=$rc"
	echo "outlen=$(wc -c <"$tmp/out")"; echo "errlen=$(wc -c <"$tmp/err")"
	echo --output--; cat "$tmp/out" "$tmp/err"
	exit 0
fi

# _t_best NAME CMP VER: the version apt would install, "" for none.
_t_best() {
	if [ "$2" = = ]; then
		apt-cache madison -- "$1" 2>/dev/null | while IFS='|' read -r _ v _; do
			v=$(printf %s "$v" | tr -d ' ')
			# shellcheck disable=SC2254 # the version is a glob, as apt takes it
			case $v in $3) echo "$v"; break ;; esac
		done
		return
	fi
	if [ -n "$release" ]; then
		apt-cache -o "APT::Default-Release=$release" policy -- "$1" 2>/dev/null
	else
		apt-cache policy -- "$1" 2>/dev/null
	fi | sed -n 's/^  Candidate: //p' | grep -v '^(none)$'
}

# Expand wildcards against the cache's names, as Ansible does.
list=
_t_oldifs=$IFS; IFS='
'
set -f
for s in $specs; do
	n=${s%%[>=]*}
	case $n in
	*[][*?!]*)
		case $n in *:*) all=$(apt-cache pkgnames) ;; *) all=$(apt-cache pkgnames | grep -v :) ;; esac
		# shellcheck disable=SC2254 # the name is a glob, as apt takes it
		m=$(for p in $all; do case $p in $n) echo "$p" ;; esac; done)
		[ -n "$m" ] || _t_fail "No package(s) matching '$n' available"
		list="$list$m
" ;;
	*) list="$list$s
" ;;
	esac
done

# _t_scan: for each name of $list, its state in dpkg's status file, read
# in one pass of awk for them all (dpkg-query -W, one per name, loads the
# whole database: several times the cost): in $dstat, after a newline,
# "NAME<tab>ii |VERSION" for its one installed instance, "NAME<tab>un |"
# for none, "NAME<tab>?" where only dpkg-query can tell (an
# arch-qualified name or a pattern, several instances); and a line
# "<tab>auto" when one of them is marked as installed automatically in
# apt's extended_states (_t_anyauto). The status file is where dpkg-query
# reads it ($DPKG_ADMINDIR, as dpkg takes it); empty when there is none.
_t_scan() {
	dstat= _sn=
	[ -n "$list" ] && [ -r "${DPKG_ADMINDIR:-/var/lib/dpkg}/status" ] || return 0
	for s in $list; do _sn="$_sn${s%%[>=]*}
"; done
	set -- "${DPKG_ADMINDIR:-/var/lib/dpkg}/status"
	[ -s /var/lib/apt/extended_states ] && set -- "$@" /var/lib/apt/extended_states
	dstat="
$(awk -v names="$_sn" 'BEGIN { RS = ""; n = split(names, l, "\n"); for (i = 1; i <= n; i++) if (l[i] != "" && !(l[i] in want)) { want[l[i]] = 1; order[++k] = l[i] } }
	# A stanza at a time: its first line names it; only a wanted one is
	# read line by line.
	FILENAME == ARGV[1] {
		e = index($0, "\n"); h = e ? substr($0, 1, e - 1) : $0
		if (h !~ /^Package:/ || split(h, w, " ") != 2 || !(w[2] in want)) next
		p = w[2]; st = ""; v = ""
		m = split($0, ln, "\n")
		for (j = 2; j <= m; j++) {
			if (ln[j] ~ /^Status:/) { split(ln[j], w, " "); st = w[4] }
			else if (ln[j] ~ /^Version:/) { split(ln[j], w, " "); v = w[2] }
		}
		cnt[p]++
		if (st == "installed") { ok[p] = 1; ver[p] = v }
		next
	}
	!auto && /Auto-Installed:/ {
		m = split($0, ln, "\n"); q = ""; a = ""
		for (j = 1; j <= m; j++) {
			if (ln[j] ~ /^Package:/) { split(ln[j], w, " "); q = w[2]; a = "" }
			else if (ln[j] ~ /^Architecture:/) { split(ln[j], w, " "); a = w[2] }
			else if (ln[j] ~ /^Auto-Installed: *1/ && (q in want || (q ":" a) in want)) auto = 1
		}
	}
	END {
		for (i = 1; i <= k; i++) {
			x = order[i]
			if (x ~ /[]:[*?!]/ || cnt[x] > 1) print x "\t?"
			else if (ok[x]) print x "\tii |" ver[x]
			else print x "\tun |"
		}
		if (auto) print "\tauto"
	}' "$@" 2>/dev/null)" || dstat=
}
# _t_cur NAME: in $cur, what dpkg-query -W -f='${db:Status-Abbrev}|${Version}'
# says of NAME: from $dstat when it knows.
_t_cur() {
	case $dstat in
	*"
$1	"*)
		cur=${dstat#*"
$1	"}
		cur=${cur%%"
"*} ;;
	*) cur='?' ;;
	esac
	[ "$cur" != '?' ] || cur=$(dpkg-query -W -f='${db:Status-Abbrev}|${Version}' -- "$1" 2>/dev/null)
}

_t_scan
todo= disp= names=
for s in $list; do
	case $s in
	*'>='*) n=${s%%>=*} cmp='>=' ver=${s#*>=} ;;
	*=*) n=${s%%=*} cmp='=' ver=${s#*=} ;;
	*) n=$s cmp= ver= ;;
	esac
	_t_cur "$n"
	inst= iv=
	case $cur in ?i*) inst=1 iv=${cur#*|} ;; esac
	vok=
	if [ -n "$inst" ]; then
		# shellcheck disable=SC2254 # the version is a glob, as apt takes it
		case $cmp in
		=) case $iv in $ver) vok=1 ;; esac ;;
		'>=') dpkg --compare-versions "$iv" ge "$ver" && vok=1 ;;
		*) vok=1 ;;
		esac
	fi
	if [ "$state" = absent ]; then
		if [ -n "$vok" ] || { [ -n "$purge" ] && dpkg-query -L -- "$n" >/dev/null 2>&1; }; then
			echo "item=$s"; todo="$todo$s
"; disp="$disp '$s'"
		fi
		continue
	fi
	names="$names$n
"
	[ -z "$inst" ] && [ -n "$onlyup" ] && continue
	# What is installed at a version that will do stays as it is: no
	# need to ask apt about it (state=latest asks for the candidate).
	[ -n "$vok" ] && [ "$state" != latest ] && continue
	if [ -z "$inst" ] && [ -z "$(apt-cache policy -- "$n" 2>/dev/null)" ]; then
		# A virtual package: apt chooses the provider.
		if apt-cache showpkg -- "$n" 2>/dev/null | sed '1,/^Reverse Provides:/d' | grep -q .; then
			echo "item=$s"; todo="$todo$n
"; disp="$disp '$n'"; continue
		fi
		_t_fail "No package matching '$n' is available"
	fi
	best=$(_t_best "$n" "$cmp" "$ver") can=
	if [ -n "$best" ]; then
		if [ -z "$inst" ]; then can=$best
		elif [ "$best" != "$iv" ]; then
			# shellcheck disable=SC2254 # the version is a glob, as apt takes it
			case $cmp in
			=) case $best in $ver) can=$best ;; esac ;;
			'>=') dpkg --compare-versions "$best" ge "$ver" && can=$best ;;
			*) can=$best ;;
			esac
		fi
	fi
	if [ -z "$vok" ] && [ -z "$can" ]; then _t_fail "no available installation candidate for $s" 1; fi
	if [ -n "$can" ] && { [ -z "$inst" ] && [ -z "$onlyup" ] || [ "$state" = latest ] || [ -z "$vok" ]; }; then
		echo "item=$s"; todo="$todo$n=$can
"; disp="$disp '$n=$can'"
	elif [ -n "$vok" ] && [ -n "$can" ] && [ "$cmp" = = ]; then
		echo "item=$s"; todo="$todo$n=$ver
"; disp="$disp '$n=$ver'"
	fi
done

_t_mark() { # apt-mark manual NAMES, as Ansible does after an install
	[ -n "$_t_check" ] && return 0
	[ -n "$names" ] || return 0
	command -v apt-mark >/dev/null || { echo "warning=Could not find apt-mark binary, not marking package(s) as manually installed."; return 0; }
	_t_tmp
	apt-mark manual $names >"$tmp/mout" 2>"$tmp/merr" ||
		_t_fail "'$(command -v apt-mark) manual $(echo $names)' failed: $(cat "$tmp/merr")"
}

# _t_anyauto: one of $names is marked as installed automatically (in
# apt's extended_states), so that apt-mark manual has something to do.
_t_anyauto() {
	if [ -n "$dstat" ]; then
		case $dstat in *"
	auto"*) return 0 ;; esac
		return 1
	fi
	[ -s /var/lib/apt/extended_states ] || return 1
	awk -v names="$names" 'BEGIN { n = split(names, l, "\n"); for (i = 1; i <= n; i++) if (l[i] != "") want[l[i]] = 1 }
		/^Package:/ { p = $2; a = "" } /^Architecture:/ { a = $2 }
		/^Auto-Installed: *1/ && (p in want || (p ":" a) in want) { found = 1; exit }
		END { exit !found }' /var/lib/apt/extended_states
}

if [ -z "$todo" ]; then
	# Nothing installed: apt-mark manual only for a name marked
	# automatic, the only one it would change.
	[ "$state" = absent ] || ! _t_anyauto || _t_mark
	IFS=$_t_oldifs; set +f
	echo verdict=noop; exit 0
fi
set -- $lockopt
IFS=,
for o in $dpkgopts; do set -- "$@" -o "Dpkg::Options::=--$o"; done
IFS='
'
yes=; [ -n "$force" ] && { yes=--force-yes; set -- "$@" --force-yes; }
ar=; [ -n "$autoremove" ] && { ar=--auto-remove; set -- "$@" --auto-remove; }
nr=; [ "$state" != absent ] && [ -n "$noremove" ] && { nr=--no-remove; set -- "$@" --no-remove; }
sim=; [ -n "$_t_check" ] && { sim=--simulate; set -- "$@" --simulate; }
if [ "$state" = absent ]; then
	pg=; [ -n "$purge" ] && { pg=--purge; set -- "$@" --purge; }
	echo "cmd=$aptget -q -y $dopts $pg $yes $ar $sim remove$disp"
	echo "what=$disp"
	set -- -q -y "$@" remove $todo
else
	ou=; [ -n "$onlyup" ] && { ou=--only-upgrade; set -- "$@" --only-upgrade; }
	extra=
	[ -n "$release" ] && { extra="$extra -t '$release'"; set -- "$@" -t "$release"; }
	case $recommends in
	no) extra="$extra -o APT::Install-Recommends=no"; set -- "$@" -o APT::Install-Recommends=no ;;
	yes) extra="$extra -o APT::Install-Recommends=yes"; set -- "$@" -o APT::Install-Recommends=yes ;;
	esac
	[ -n "$unauth" ] && { extra="$extra --allow-unauthenticated"; set -- "$@" --allow-unauthenticated; }
	[ -n "$downgrade" ] && { extra="$extra --allow-downgrades"; set -- "$@" --allow-downgrades; }
	[ -n "$held" ] && { extra="$extra --allow-change-held-packages"; set -- "$@" --allow-change-held-packages; }
	echo "cmd=$aptget -y $dopts $ou  $yes $ar $nr $sim install$disp$extra"
	set -- -y "$@" install $todo
fi
IFS=$_t_oldifs; set +f
_t_prc_on
_t_tmp
"$aptget" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
_t_prc_off
[ $rc -eq 0 ] && [ "$state" != absent ] && _t_mark
echo verdict=ran; echo "rc=$rc"
echo "outlen=$(wc -c <"$tmp/out")"; echo "errlen=$(wc -c <"$tmp/err")"
echo --output--; cat "$tmp/out" "$tmp/err"
