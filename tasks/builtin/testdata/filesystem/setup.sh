#!/bin/sh
# setup.sh makes the sparse disk images the filesystem fleet tasks work
# on: block devices cannot be made in a plain container.
set -eu
truncate -s 64M /tmp/ext.img
truncate -s 320M /tmp/xfs.img
truncate -s 32M /tmp/fat.img
truncate -s 16M /tmp/other.img /tmp/blank.img /tmp/two.img /root/tilde.img
