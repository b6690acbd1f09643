# Reads what find's checksum and contains filters need of each file named
# by the positional parameters: its SHA-1 (when $sum is set), its content
# (when $cat is set), then the boundary line $b.
for f in "$@"; do
	if [ -n "$sum" ]; then _t_sum sha1 "$f"; fi
	if [ -n "$cat" ]; then cat -- "$f" 2>/dev/null; fi
	printf '\n%s\n' "$b"
done
