# Every path is under $root ("" but in tests).
# libselinux's view: SELinux is on when selinuxfs is mounted read-write
# and /etc/selinux/config exists; the policy type is the config's last
# SELINUXTYPE= (targeted without one).
mnt=$(awk '$3 == "selinuxfs" && $4 !~ /(^|,)ro(,|$)/ { print $2; exit }' "$root/proc/mounts" 2>/dev/null)
[ -z "$mnt" ] || mnt=$root$mnt
conf=$root/etc/selinux/config
if [ -z "$ignore" ] && { [ -z "$mnt" ] || [ ! -e "$conf" ]; }; then echo err=disabled; exit 0; fi
type=
[ -r "$conf" ] && type=$(awk '{ sub(/^[[:space:]]+/, "") } toupper(substr($0, 1, 12)) == "SELINUXTYPE=" { t = substr($0, 13); sub(/[[:space:]]+$/, "", t) } END { print t }' "$conf")
[ -n "$type" ] || type=targeted
# the policy's renamed booleans: the first line naming $name as the old
# name (and a new one) gives the new one
subs=$root/etc/selinux/$type/booleans.subs_dist
if [ -r "$subs" ]; then
	s=$(n=$name awk '{ sub(/^[[:space:]]+/, "") } $0 == "" || /^#/ { next } $1 == ENVIRON["n"] && $2 != "" { print $2; exit }' "$subs")
	if [ -n "$s" ]; then name=$s; echo "sub=$s"; fi
fi
{ [ -n "$mnt" ] && [ -r "$mnt/booleans" ]; } || { echo err=names; exit 0; }
case $name in '' | . | .. | */*) echo err=notexist; exit 0 ;; esac
[ -e "$mnt/booleans/$name" ] || { echo err=notexist; exit 0; }
if [ -z "$persistent" ]; then
	# the running value: the first of the file's "active pending" pair
	cur=$(cat "$mnt/booleans/$name" 2>/dev/null) || { echo err=state; exit 0; }
	cur=${cur%% *}
	[ "$cur" = 1 ] || cur=0
	[ "$cur" = "$want" ] && { echo changed=0; exit 0; }
	[ -n "$check" ] && { echo changed=1; exit 0; }
	printf %s "$want" 2>/dev/null >"$mnt/booleans/$name" || { echo err=set; exit 0; }
	printf 1 2>/dev/null >"$mnt/commit_pending_bools" || { echo err=commit; exit 0; }
	echo changed=1
	exit 0
fi
store=$root/var/lib/selinux/$type
if ! [ -r "$store/active" ] || ! [ -x "$store/active" ]; then
	if [ "$(id -u)" = 0 ]; then echo err=unmanaged; else echo err=root; fi
	exit 0
fi
[ "$(id -u)" = 0 ] || { echo err=transaction; exit 0; }
# The persistent value is the one in the store's kernel policy, which
# semanage rebuilds with the local changes: a boolean there is three
# little-endian u32 (value, state, the name's length) and the name.
pk=$store/active/policy.kern
len=$(printf %s "$name" | wc -c)
cur=
for off in $(grep -obUaF -e "$name" "$pk" 2>/dev/null | head -n 64 | cut -d: -f1); do
	[ "$off" -ge 12 ] || continue
	# shellcheck disable=SC2046 # od prints the three numbers as words
	set -- $(od -A n --endian=little -t u4 -j $((off - 12)) -N 12 "$pk")
	if [ $# -eq 3 ] && [ "$3" -eq "$len" ] && [ "$1" -ge 1 ] && { [ "$2" = 0 ] || [ "$2" = 1 ]; }; then
		cur=$2
		break
	fi
done
[ -n "$cur" ] || { echo err=notdefined; exit 0; }
[ "$cur" = "$want" ] && { echo changed=0; exit 0; }
[ -n "$check" ] && { echo changed=1; exit 0; }
PATH=$PATH:$root/usr/sbin:$root/sbin
command -v setsebool >/dev/null 2>&1 || { echo err=nosetsebool; exit 0; }
# as the module: the store and the running value change, the policy is
# not reloaded
if [ "$want" = 1 ]; then w=on; else w=off; fi
_t_run setsebool -N -P -- "$name" "$w" || { echo err=commit_store; echo "rc=$rc"; _t_tail; exit 0; }
echo changed=1
