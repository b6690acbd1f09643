# Prepares the acl case's host (a fresh tender-e2e/debian-sys, for both
# tools): a user, a group and a tree under /srv/acl whose files have
# fixed modes, so that their ACLs read the same on every host.
set -e
useradd -M joe
useradd -M ann
groupadd devs
mkdir -p /srv/acl/d/sub /srv/acl/r/a/b /srv/acl/m
umask 022
printf 'f\n' >/srv/acl/f
printf 'g\n' >/srv/acl/d/sub/g
printf 'h\n' >/srv/acl/r/a/h
printf 'i\n' >/srv/acl/r/a/b/i
printf 'x\n' >/srv/acl/exe
chmod 0755 /srv/acl/exe
printf 'm\n' >/srv/acl/m/f
ln -s f /srv/acl/link
ln -s nowhere /srv/acl/dangling
