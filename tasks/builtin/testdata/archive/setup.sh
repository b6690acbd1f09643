#!/bin/sh
# setup.sh prepares the fresh host of archive's fleet test (run as root
# before the tasks): source trees under /srv/a, an empty /srv/out, and a
# file in root's home.
set -eu
mkdir -p /srv/a/tree/sub /srv/a/tree/.dot /srv/a/two /srv/out /srv/out/isdir
printf 'alpha\n' >/srv/a/tree/a.txt
printf 'beta\n' >/srv/a/tree/sub/b.log
printf 'gamma\n' >/srv/a/tree/sub/c.txt
printf 'dot\n' >/srv/a/tree/.dot/d
ln -s a.txt /srv/a/tree/link
printf 'one\n' >/srv/a/two/one.txt
printf 'solo\n' >/srv/a/solo.txt
printf 'notar\n' | gzip -c >/srv/out/notar.tar
cp -a /srv/a/tree /srv/a/gone
printf 'single\n' >/srv/a/gone1.txt
printf 'home\n' >/root/h.txt
find /srv/a -exec touch -h -d '2024-01-02 03:04:05' {} +
