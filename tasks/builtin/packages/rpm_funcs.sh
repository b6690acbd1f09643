qf='%{NAME}-%|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}.%{ARCH}\n'
_t_nevra() { _o=$(_t_rpm -q --qf "$qf" -- "$1" 2>/dev/null) && printf '%s\n' "$_o"; }
# _t_nvr SPEC: when SPEC names a name-[epoch:]version-release[.arch] (as
# Ansible's dnf parses one), set _n, _e, _v and _r.
_t_nvr() {
	_s=${1%.rpm}
	case $_s in *.*) case ${_s##*.} in
		aarch64 | alpha* | amd64 | arm* | athlon | geode | i[3-6]86 | ia32e | ia64 | m68k | mips* | noarch | pentium[34] | ppc* | riscv64 | s390 | s390x | sh | sh3 | sh4 | sh4a | sparc* | x86_64) _s=${_s%.*} ;;
	esac ;; esac
	_r=${_s##*-} _t=${_s%-*}
	[ "$_t" != "$_s" ] || return 1
	_v=${_t##*-} _n=${_t%-*} _e=0
	[ "$_n" != "$_t" ] && [ -n "$_n" ] || return 1
	case $_v in *:*) _p=${_v%%:*}; case $_p in *[!0-9]*) ;; *) [ -n "$_p" ] && _e=$_p; _v=${_v#*:} ;; esac ;; esac
	case $_r in '~'[A-Za-z0-9_]* | [A-Za-z0-9_]*) ;; *) return 1 ;; esac
	case ${_v%%.*} in '' | *[!0-9]*) return 1 ;; esac
	case $_n in *:*) _e=${_n%%:*} _n=$(printf %s "${_n#*:}" | tr -d :) ;; esac
	return 0
}
# _t_vercmp A B prints -1, 0 or 1 as rpm compares A and B (the values
# reach rpm's Lua in its environment, never in code).
_t_vercmp() { T_A=$1 T_B=$2 rpm --eval '%{lua: print(rpm.vercmp(os.getenv("T_A"), os.getenv("T_B")))}'; }
# _t_newer SPEC: SPEC is a name-version-release and the installed
# package of that name is newer.
_t_newer() {
	_t_nvr "$1" || return 1
	_i=$(_t_rpm -q --qf '%{EPOCHNUM} %{VERSION} %{RELEASE}\n' -- "$_n" 2>/dev/null | head -n1)
	[ -n "$_i" ] || return 1
	_ie=${_i%% *} _i=${_i#* }
	_iv=${_i%% *} _ir=${_i#* }
	[ "$_ie" -gt "$_e" ] 2>/dev/null && return 0
	[ "$_ie" -lt "$_e" ] 2>/dev/null && return 1
	_c=$(_t_vercmp "$_iv" "$_v")
	[ "$_c" = 1 ] && return 0
	[ "$_c" = 0 ] && [ "$(_t_vercmp "$_ir" "$_r")" = 1 ]
}
# _t_missing SPEC reports a package to install that the repositories do
# not offer: filtered out (exclude, security or bugfix) as dnf words it,
# or missing.
_t_missing() {
	if "$tool" --assumeno $opts $secopts install -- "$1" 2>&1 | grep -qF "All matches were filtered out by exclude filtering for argument: $1"; then
		echo "failure=$1 All matches were filtered out by exclude filtering for argument: $1"
	else echo "failure=No package $1 available."; fi
	failed=1
}
# _t_table FILE: the packages of the transactions dnf printed in FILE:
# installed=NEVRA, removed=NEVRA, and old=NAME for an upgrade or a
# downgrade (whose installed version goes).
_t_table() {
	awk '/^Transaction Summary/ || /^=+$/ { sec = ""; next }
	/^(Installing|Upgrading|Reinstalling|Downgrading|Removing|Skipping)[^:]*:$/ { sec = $0; pend = ""; next }
	/^[^ ]/ { sec = ""; next }
	sec == "" || sec ~ /^Skipping/ { next }
	NF == 1 && pend == "" { pend = $1; next }
	{
		n = split(pend " " $0, f, " "); pend = ""
		if (n < 4 || f[1] == "replacing") next
		nevra = f[1] "-" f[3] "." f[2]
		if (sec ~ /^Removing/) { print "removed=" nevra; next }
		print "installed=" nevra
		if (sec ~ /^(Upgrading|Downgrading)/) print "old=" f[1]
	}' "$1"
}
