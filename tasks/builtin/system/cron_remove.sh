# Removes the cron file $f (only when $check is empty), printing gone=1
# when it is not there and removed=1 when it is (or would be) removed.
[ -f "$f" ] || { echo gone=1; exit 0; }
if [ -n "$check" ]; then
	echo removed=1
else
	rm -f -- "$f" 2>/dev/null && echo removed=1
fi
