#!/bin/sh
# gen.sh records community.general 6.6.2's lvol (under ansible-core 2.14)
# on a fresh fleet VM (e2e/fleet/run-vm.sh: device-mapper, empty disks
# /dev/vdb and /dev/vdc): ansible.json, compared by TestLvolFleet
# (lvol_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/lvol/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" vm "$here" tasks.yml ansible.json
