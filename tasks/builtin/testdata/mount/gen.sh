#!/bin/sh
# gen.sh records ansible.posix 1.5.4's mount (ansible-core 2.14) on a fresh
# tender-e2e/debian-sys host with SYS_ADMIN (record.sh's sysadmin kind)
# after setup.sh: ansible.json, compared by TestMountFleet
# (mount_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/mount/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sysadmin "$here" tasks.yml ansible.json
