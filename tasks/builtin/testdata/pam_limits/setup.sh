#!/bin/sh
# setup.sh prepares the pam_limits fleet host: limits files under
# /etc/lim with comments, blank lines, odd lines, duplicates, a bad value
# and no final newline, and a read-only directory.
set -eu
mkdir -p /etc/lim /etc/lim/ro
printf '# limits for the tests\n\n*\tsoft\tcore\t0\n@staff   hard   nproc   100   # staff cap\nodd line here\n  # indented comment\nmary soft nofile 64\n' >/etc/lim/main.conf
printf 'bob soft nofile 10 # first comment\nbob hard nofile 20\n' >/etc/lim/comment.conf
printf 'ann soft nofile 10\nann soft nofile 30\n' >/etc/lim/dup.conf
printf 'eve soft nofile 10' >/etc/lim/nonl.conf
printf 'bad soft nofile lots\n' >/etc/lim/bad.conf
printf 'bad soft nice 40\n' >/etc/lim/badnice.conf
printf 'max soft nofile 100\nmax hard nproc unlimited\nmin soft nofile 100\nmin hard nproc infinity\npri soft priority 5\n' >/etc/lim/max.conf
chmod 0640 /etc/lim/main.conf
