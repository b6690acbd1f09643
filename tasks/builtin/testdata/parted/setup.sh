#!/bin/sh
# setup.sh makes the disk images the parted tasks partition: regular
# files (a container has no block device to spare).
set -eu
rm -f /var/tmp/d1.img /var/tmp/d2.img /var/tmp/d3.img
truncate -s 32M /var/tmp/d1.img
truncate -s 64M /var/tmp/d2.img
truncate -s 16M /var/tmp/d3.img
