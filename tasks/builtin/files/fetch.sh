
if [ -d "$p" ]; then echo isdir=1; exit 0; fi
if [ ! -e "$p" ]; then echo missing=1; exit 0; fi
if [ ! -r "$p" ]; then echo unreadable=1; exit 0; fi
s=$(_t_sum sha1 "$p")
echo "sum=$s"
[ "$s" = "$have" ] && exit 0
if [ "$(stat -L -c %s -- "$p")" -gt $max ]; then echo get=1; exit 0; fi
echo --content--
cat -- "$p"
