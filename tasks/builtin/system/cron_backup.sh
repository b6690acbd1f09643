# Saves the crontab as it was before the task changed it (stdin) to a new
# private file in $TMPDIR (/tmp by default) named crontab and eight random
# characters, as Python's tempfile.mkstemp(prefix='crontab') makes
# Ansible's, and prints its path.
umask 077
b=$(mktemp "${TMPDIR:-/tmp}/crontabXXXXXXXX") || { echo "fail=could not make the crontab's backup file"; exit 0; }
cat >"$b" || { rm -f -- "$b"; echo "fail=could not write the crontab's backup to $b"; exit 0; }
echo "backup_file=$b"
