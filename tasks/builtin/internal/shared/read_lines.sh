
if [ -f "$f" ]; then
	[ -r "$f" ] || { echo "fail=cannot read $f"; exit 0; }
	echo exists=1
	printf '%s\n' "$_t_cm"
	cat -- "$f"
else
	echo exists=0
fi
