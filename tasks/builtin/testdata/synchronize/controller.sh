#!/bin/sh
# controller.sh (re)creates the controller's side of synchronize's fleet
# test: the tree pushed to the host (/tmp/tender-sync-src) and no pulled
# copies. gen.sh runs it before recording ansible-core, and
# TestSynchronizeFleet before running tender's module, so both start
# from the same controller files.
set -eu
rm -rf /tmp/tender-sync-src /tmp/tender-sync-pull /tmp/tender-sync-pull-check
mkdir -p /tmp/tender-sync-src/sub
printf 'alpha\n' >/tmp/tender-sync-src/a.txt
printf 'beta\n' >/tmp/tender-sync-src/sub/b.txt
printf 'noise\n' >/tmp/tender-sync-src/debug.log
ln -s a.txt /tmp/tender-sync-src/link
chmod 0640 /tmp/tender-sync-src/a.txt
chmod 0755 /tmp/tender-sync-src /tmp/tender-sync-src/sub
chmod 0644 /tmp/tender-sync-src/sub/b.txt /tmp/tender-sync-src/debug.log
