# The acl task's commands, after Go's plan. Inputs:
#   path     the path (expanded)
#   op       none (the plan failed: only check the path), get, set or rm
#   check    non-empty in check mode
#   _acl_set PROG [--test]  runs setfacl's -m or -x command line
#   _acl_get PROG           runs getfacl's command line
# Prints nopath=1, nobin=PROG with paths=, or sf=/gf= (the programs),
# changed=, then failed=test|apply|get with rc= or done=1, and _t_tail.
_t_step() { "$@" >"$_t_d/o" 2>"$_t_d/e" </dev/null; rc=$?; }
_t_stop() { echo "failed=$1"; echo "rc=$rc"; _t_tail; exit 0; }
_acl_bin() {
	command -v "$1" 2>/dev/null && return 0
	echo "nobin=$1"
	_p=$PATH
	for _s in /sbin /usr/sbin /usr/local/sbin; do
		case ":$_p:" in *":$_s:"*) ;; *) _p=$_p:$_s ;; esac
	done
	echo "paths=$_p"
	exit 0
}
[ -e "$path" ] || { echo nopath=1; exit 0; }
printf 'path=%s\n' "$path"
[ "$op" = none ] && { echo done=0; exit 0; }
if [ "$op" != get ]; then
	_sf=$(_acl_bin setfacl) || exit 0
	case $_sf in nobin=*) printf '%s\n' "$_sf"; exit 0 ;; esac
	echo "sf=$_sf"
	_acl_set "$_sf" --test
	[ "$rc" -eq 0 ] || _t_stop test
	# setfacl --test prints each file's ACL, "*,*" when neither its access
	# nor its default ACL would change.
	if awk '!/^#/ { s = $0; gsub(/^[[:space:]]+|[[:space:]]+$/, "", s); n++; l[n] = s }
		END { if (n && l[n] == "") n--; for (i = 1; i <= n; i++) if (l[i] !~ /\*,\*$/) exit 0; exit 1 }' "$_t_d/o"; then
		echo changed=1
		if [ -z "$check" ]; then
			_acl_set "$_sf"
			[ "$rc" -eq 0 ] || [ "$op" = rm ] || _t_stop apply
		fi
	else
		echo changed=0
	fi
fi
_gf=$(_acl_bin getfacl) || exit 0
case $_gf in nobin=*) printf '%s\n' "$_gf"; exit 0 ;; esac
echo "gf=$_gf"
_acl_get "$_gf"
[ "$rc" -eq 0 ] || _t_stop get
echo done=1
_t_tail
