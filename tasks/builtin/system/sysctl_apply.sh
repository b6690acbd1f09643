
_ig=; [ -n "$ignore" ] && _ig=-e
_bad() { grep -Eq '^sysctl: setting key "[^"]+": (Invalid argument|Read-only file system)$' "$1"; }
if [ -n "$set" ]; then
	_o=$(LANG=C LC_ALL=C sysctl $_ig -w "$name=$value" 2>"$_t_d/e"); _rc=$?
	if [ $_rc -ne 0 ] || _bad "$_t_d/e"; then
		{ printf 'setting %s failed: %s' "$name" "$_o"; [ -z "$_o" ] || echo; cat "$_t_d/e"; } >"$_t_d/m"
		echo fail=1; printf '\n%s\n' "$_t_om"; printf '\n%s\n' "$_t_em"; cat "$_t_d/m"; exit 0
	fi
fi
if [ -n "$reload" ]; then
	LANG=C LC_ALL=C sysctl $_ig -p "$f" >"$_t_d/o" 2>"$_t_d/e"; _rc=$?
	if [ $_rc -ne 0 ] || _bad "$_t_d/e"; then
		{ printf 'Failed to reload sysctl: '; cat "$_t_d/o" "$_t_d/e"; } >"$_t_d/m"
		echo fail=1; printf '\n%s\n' "$_t_om"; printf '\n%s\n' "$_t_em"; cat "$_t_d/m"; exit 0
	fi
fi
echo applied=1
