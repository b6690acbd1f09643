# Looks up $key (when $has_key is set) in database $db with getent, with
# -s $service when $has_service is set. getent's output is the script's;
# its exit status follows as rc=N, the last line on stderr. A host
# without getent fails with Ansible's message.
command -v getent >/dev/null 2>&1 || {
	echo 'Failed to find required executable "getent" in paths: '"$PATH" >&2
	exit 127
}
set -- "$db"
if [ -n "$has_key" ]; then set -- "$@" "$key"; fi
if [ -n "$has_service" ]; then set -- "$@" -s "$service"; fi
getent "$@"
echo "rc=$?" >&2
