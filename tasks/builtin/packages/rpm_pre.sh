export LANG=C LC_ALL=C
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit 0; }
command -v "$tool" >/dev/null 2>&1 || _t_fail "Failed to find required executable \"$tool\" in paths: $PATH"
command -v rpm >/dev/null 2>&1 || _t_fail "Failed to find required executable \"rpm\" in paths: $PATH"
# conf_file must be readable, as Ansible checks before dnf starts.
[ -z "$conf" ] || [ -r "$conf" ] || { echo verdict=noconf; exit 0; }
tmp=$(mktemp -d) || _t_fail "could not create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
# rpm queries look into installroot, as dnf does.
_t_rpm() { if [ -n "$root" ]; then rpm --root "$root" "$@"; else rpm "$@"; fi; }
# yum (yum 3) waits lock_timeout seconds for another yum to end, as
# Ansible's yum module; dnf waits for its own lock.
if [ -n "$lockwait" ]; then
	_t_i=0
	while [ -f /var/run/yum.pid ] && kill -0 "$(cat /var/run/yum.pid 2>/dev/null)" 2>/dev/null; do
		[ "$_t_i" -lt "$lockwait" ] || _t_fail "yum lockfile is held by another process"
		_t_i=$((_t_i + 1)); sleep 1
	done
fi
# Without releasever, warn when dnf cannot tell the release (no package
# provides it, no vars file sets it), as Ansible's dnf does.
if [ -z "$relver" ] && [ ! -s "$root/etc/dnf/vars/releasever" ] && [ ! -s "$root/etc/yum/vars/releasever" ]; then
	_t_rel=
	for p in 'system-release(releasever)' system-release 'distribution-release(releasever)' distribution-release redhat-release suse-release; do
		rpm -q --whatprovides "$p" >/dev/null 2>&1 && { _t_rel=1; break; }
	done
	[ -n "$_t_rel" ] || echo 'warning=Unable to detect release version (use "releasever" option to specify release version)'
fi
