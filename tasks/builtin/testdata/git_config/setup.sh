# Prepares the git_config case's host (a fresh tender-e2e/debian-sys):
# no system or global configuration yet, a repository at /srv/repo, a
# plain directory /srv/plain, and /srv/multi.cfg holding a key with two
# values and an include of /srv/inc.cfg.
set -e
rm -f /etc/gitconfig /root/.gitconfig
git init -q /srv/repo
mkdir -p /srv/plain
cat >/srv/inc.cfg <<'C'
[included]
	key = from-include
C
cat >/srv/multi.cfg <<'C'
[include]
	path = /srv/inc.cfg
[multi]
	key = one
	key = two
C
