#!/bin/sh
# setup.sh prepares a fresh sysadmin host for the mount fleet test: an
# fstab with comments, a blank line, a line of four fields, swap lines
# and entries to remove, the directories they name, and bind sources.
set -eu
printf '%s\n' '# /etc/fstab: test table' '' \
	'/dev/sdy1 /mnt/four ext4 defaults' \
	'/dev/sdx1 none swap sw 0 0' \
	'   # indented comment' \
	'/dev/sdy2 /mnt/full ext4 defaults 0 2' \
	'/dev/sdy3 /mnt/gone ext4 defaults 0 0' \
	'/dev/sdy4   /mnt/five   ext4   ro   1' >/etc/fstab
printf '/dev/sdy5 /mnt/last xfs defaults 0 0' >>/etc/fstab
mkdir -p /mnt/full /mnt/gone /srv/data /srv/other
echo keep >/mnt/full/file
echo data >/srv/data/file
