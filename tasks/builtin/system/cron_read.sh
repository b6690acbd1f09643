
if [ -n "$f" ]; then
	if [ -f "$f" ]; then
		echo exists=1
		printf '%s\n' "$_t_cm"
		cat -- "$f" || exit 1
	fi
	exit 0
fi
command -v crontab >/dev/null 2>&1 || { echo 'fail=Failed to find required executable "crontab" in paths: '"$PATH"; exit 0; }
_t_ct() { if [ -n "$user" ] && [ "$(id -un)" != "$user" ]; then crontab -u "$user" "$@"; else crontab "$@"; fi; }
_o=$(_t_ct -l 2>/dev/null; echo "rc=$?")
case ${_o##*rc=} in 0|1) ;; *) echo "fail=Unable to read crontab"; exit 0 ;; esac
_o=${_o%rc=*}
printf '%s\n' "$_t_cm"
printf '%s' "$_o"
