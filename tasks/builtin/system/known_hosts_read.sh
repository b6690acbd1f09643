
fail() { echo "fail=$1"; exit 0; }
echo "path=$f"
command -v ssh-keygen >/dev/null 2>&1 || fail 'Failed to find required executable "ssh-keygen" in paths: '"$PATH"
if [ -n "$key" ]; then
	_k=$(mktemp) || exit 1
	printf '%s' "$key" >"$_k"
	_o=$(ssh-keygen -F "$host" -f "$_k" 2>/dev/null)
	rm -f -- "$_k"
	[ -n "$_o" ] || fail "Host parameter does not match hashed host field in supplied key"
fi
[ -e "$f" ] || { echo exists=0; exit 0; }
_t_info "$f" | sed 's/^/pi_/'
_d=$(mktemp -d) || exit 1
ssh-keygen -F "$host" -f "$f" >"$_d/o" 2>"$_d/e"
echo "rc=$?"
[ -f "$f" ] && echo exists=1
printf '%s\n' "$_t_kgo"
cat "$_d/o"
printf '%s\n' "$_t_kge"
cat "$_d/e"
rm -rf -- "$_d"
printf '%s\n' "$_t_cm"
cat -- "$f" 2>/dev/null
