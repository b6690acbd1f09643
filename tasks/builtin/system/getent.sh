# Looks up $key (when $has_key is set) in database $db with getent, with
# -s $service when $has_service is set. getent's output is the script's;
# its exit status follows on a line of its own, after the marker $_t_rcm
# (getent's lines all end in a newline). A host without getent fails with
# Ansible's message.
command -v getent >/dev/null 2>&1 || {
	echo 'Failed to find required executable "getent" in paths: '"$PATH" >&2
	exit 127
}
set -- "$db"
if [ -n "$has_key" ]; then set -- "$@" "$key"; fi
if [ -n "$has_service" ]; then set -- "$@" -s "$service"; fi
getent "$@"
printf '%s%s\n' "$_t_rcm" "$?"
