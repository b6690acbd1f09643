
[ -z "$pi" ] || _t_info "$pi" | sed 's/^/pi_/'
