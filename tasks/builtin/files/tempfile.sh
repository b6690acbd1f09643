
dir=${dir:-${TMPDIR:-${TEMP:-${TMP:-/tmp}}}}
umask 077
for n in $names; do
	p=$dir/$pre$n$suf
	if [ -n "$isdir" ]; then mkdir -- "$p" 2>/dev/null && break
	else (set -C; : >"$p") 2>/dev/null && break
	fi
	if [ ! -d "$dir" ]; then printf 'failed=1\nmsg=[Errno 2] No such file or directory: %s\n' "'$p'"; exit 0; fi
	if [ ! -w "$dir" ]; then printf 'failed=1\nmsg=[Errno 13] Permission denied: %s\n' "'$p'"; exit 0; fi
	p=
done
[ -n "$p" ] || { echo 'failed=1'; echo 'msg=No usable temporary file name found'; exit 0; }
echo "path=$p"
_t_info "$p"
