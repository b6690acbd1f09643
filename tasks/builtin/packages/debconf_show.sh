# Reads the debconf answers of package $pkg with debconf-show, as
# Ansible's debconf module does; a host without it fails with Ansible's
# message.
command -v debconf-show >/dev/null 2>&1 || {
	echo 'fail=Failed to find required executable "debconf-show" in paths: '"$PATH"
	exit 0
}
_t_run debconf-show "$pkg" || echo fail=rc
_t_tail
