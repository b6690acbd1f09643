export LC_ALL=C
_t_need dpkg
echo "dpkg=$_t_b"
"$_t_b" --get-selections "$name" >"$_t_d/o" 2>"$_t_d/e"; rc=$?
if [ $rc -ne 0 ]; then echo failed=get; echo "rc=$rc"; _t_tail; exit 0; fi
grep -q 'no packages found matching' "$_t_d/e" && { echo missing=1; exit 0; }
cur=$(awk 'NR == 1 { print $2 }' "$_t_d/o")
printf 'cur=%s\n' "$cur"
[ -n "$cur" ] || cur='not present'
[ "$cur" = "$sel" ] && exit 0
[ -n "$check" ] && exit 0
: >"$_t_d/o"; : >"$_t_d/e"
printf '%s %s' "$name" "$sel" | "$_t_b" --set-selections >"$_t_d/o" 2>"$_t_d/e"; rc=$?
if [ $rc -ne 0 ]; then echo failed=set; echo "rc=$rc"; _t_tail; exit 0; fi
echo set=1
