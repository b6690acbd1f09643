# What Ansible's fetch learns about $p: stat's error (st=, following
# links; none when it exists), the error of opening it (oe=, as slurp's
# open), whether it is a directory; then its sha1 and, when that is not
# $have, its bytes after a "--content--" line (get=1 for a large file).
_st=$(_t_stat_err "$p")
_oe=$(_t_open_err "$p")
printf 'st=%s\noe=%s\n' "$_st" "$_oe"
if [ -d "$p" ]; then echo isdir=1; exit 0; fi
[ -n "$_st$_oe" ] && exit 0
s=$(_t_sum sha1 "$p")
echo "sum=$s"
[ "$s" = "$have" ] && exit 0
if [ "$(stat -L -c %s -- "$p")" -gt "$max" ]; then echo get=1; exit 0; fi
echo --content--
cat -- "$p"
