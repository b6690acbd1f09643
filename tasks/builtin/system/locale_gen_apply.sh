# Applies locale_gen's change: writes stdin over $write (when set), then,
# unless $stop is set, runs locale-gen with the arguments of $@. Prints
# written=1, gen=missing (no locale-gen) or rc= (its exit status).
if [ -n "$write" ]; then
	cat >"$write" || { echo "fail=cannot write $write"; exit 0; }
	echo written=1
fi
[ -z "$stop" ] || exit 0
command -v locale-gen >/dev/null 2>&1 || { echo gen=missing; exit 0; }
locale-gen "$@" >/dev/null 2>&1
echo "rc=$?"
