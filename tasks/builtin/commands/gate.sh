# The gate a command or script task passes before it runs. When set:
# $_t_chdir (command's chdir: missing, not a directory or not enterable
# ends the task with err=2, 20 or 13, as Python's os.chdir fails), then
# $_t_creates and $_t_removes, tested with $_t_test (_t_glob for command,
# which globs them as Ansible does; _t_exists for script); last, check mode
# ($_t_check) stops before anything runs.
if [ -n "$_t_has_chdir" ]; then
	if [ ! -e "$_t_chdir" ]; then
		echo tender=chdir; echo err=2; exit "${_t_failrc:-0}"
	elif [ ! -d "$_t_chdir" ]; then
		echo tender=chdir; echo err=20; exit "${_t_failrc:-0}"
	fi
	cd -P "$_t_chdir" 2>/dev/null || { echo tender=chdir; echo err=13; exit "${_t_failrc:-0}"; }
fi
if [ -n "$_t_has_creates" ] && "$_t_test" "$_t_creates"; then echo tender=creates; exit 0; fi
if [ -n "$_t_has_removes" ] && ! "$_t_test" "$_t_removes"; then echo tender=removes; exit 0; fi
if [ -n "$_t_check" ]; then echo tender=check; exit 0; fi
