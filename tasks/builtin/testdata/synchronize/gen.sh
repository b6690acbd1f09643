#!/bin/sh
# gen.sh records ansible.posix 1.5.4's synchronize (run by ansible-core
# 2.14: rsync on this machine, the controller, over ssh to a fresh
# tender-e2e/debian-sys host): ansible.json, compared by
# TestSynchronizeFleet (files/synchronize_e2e_test.go). controller.sh
# makes the controller's files first.
#
# Run by hand from anywhere: sh tasks/builtin/testdata/synchronize/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/controller.sh"
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
