# list: what dnf's list gives, one line each: pkg=name|arch|epoch|version|
# release|repo|installtime (empty for a package not installed), or
# repo=<id> for list=repos. A spec lists what is installed, then what the
# repositories offer, as Ansible's dnf queries the sack. With update
# (update_cache) the cache is made first.
oldifs=$IFS; IFS='
'
set -f
if [ -n "$update" ]; then
	"$tool" -q -y $opts makecache >"$tmp/mc" 2>&1 || _t_fail "Failed to update the package cache: $(cat "$tmp/mc")"
fi
lqf='pkg=%{name}|%{arch}|%{epoch}|%{version}|%{release}|%{repoid}|%{installtime}'
: >"$tmp/out"
case $listcmd in
installed) "$tool" -q $opts repoquery --installed --qf "$lqf" >"$tmp/out" 2>"$tmp/err" ;;
updates | upgrades) "$tool" -q $opts repoquery --upgrades --qf "$lqf" >"$tmp/out" 2>"$tmp/err" ;;
available) "$tool" -q $opts repoquery --qf "$lqf" >"$tmp/out" 2>"$tmp/err" ;;
repos | repositories)
	"$tool" -q $opts repolist --enabled 2>"$tmp/err" | awk '$1 != "repo" || $2 != "id" { print "repo=" $1 }' >"$tmp/out" ;;
*)
	"$tool" -q $opts repoquery --installed --qf "$lqf" -- "$listcmd" >"$tmp/out" 2>"$tmp/err" &&
		"$tool" -q $opts repoquery --qf "$lqf" -- "$listcmd" >>"$tmp/out" 2>>"$tmp/err" ;;
esac
rc=$?
[ $rc -eq 0 ] || _t_fail "$(grep -v '^Unable to detect release version' "$tmp/err")"
echo verdict=list
grep -E '^(pkg|repo)=' "$tmp/out"
