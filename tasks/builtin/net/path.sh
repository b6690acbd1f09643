
slept=0
while :; do
	if [ "$want" = absent ]; then
		_t_exists "$p" || { echo verdict=ok; exit 0; }
	elif [ -e "$p" ]; then
		echo verdict=ok; _t_info "$p"
		[ -n "$grab" ] && { echo --content--; cat -- "$p" 2>/dev/null; }
		exit 0
	fi
	[ "$slept" -ge "$left" ] && { echo verdict=timeout; exit 0; }
	sleep "$nap"; slept=$((slept + nap))
done
