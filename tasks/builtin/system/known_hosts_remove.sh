# Removes every key of $host from the known_hosts file $pi with
# ssh-keygen -R, as Ansible's known_hosts does for state=absent without a
# key; then path_info reports the file.
ssh-keygen -R "$host" -f "$pi" >/dev/null || exit 1
