
_enf=/sys/fs/selinux/enforce
if [ -r "$_enf" ]; then echo enabled=1; echo "enforce=$(cat "$_enf")"; fi
_get() { sed -n "s/^$1=//p" "$2" 2>/dev/null | head -n 1 | sed 's/[[:space:]]*$//;s/^[[:space:]]*//'; }
# The running policy is the one /etc/selinux/config names (libselinux
# reads it there); without that file, the one the given file names.
if [ -f /etc/selinux/config ]; then _rc=/etc/selinux/config; else _rc=$cf; fi
echo "runtime_policy=$(_get SELINUXTYPE "$_rc")"
if [ -f "$cf" ]; then
	echo config=1
	grep -q '^SELINUXTYPE=' "$cf" && echo "config_policy=$(_get SELINUXTYPE "$cf")"
	grep -q '^SELINUX=' "$cf" && echo "config_state=$(_get SELINUX "$cf")"
fi
if [ -n "$policy" ] && [ -e "/etc/selinux/$policy/policy" ]; then echo policy_ok=1; fi
