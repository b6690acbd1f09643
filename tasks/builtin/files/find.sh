
for p in "$@"; do
	echo "--path--"
	if [ ! -d "$p" ]; then echo notdir; continue; fi
	find $L "$p" -mindepth 1 $maxdepth -exec stat -c '%f|%u|%g|%s|%i|%d|%h|%x|%y|%z|%U|%G|%n' {} + 2>/dev/null
	find "$p" -mindepth 1 $maxdepth -type l 2>/dev/null | while IFS= read -r l; do [ -d "$l" ] && echo "dirlink=$l"; done
done
