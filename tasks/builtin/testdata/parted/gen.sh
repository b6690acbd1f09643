#!/bin/sh
# gen.sh records community.general 6.6.2's parted on a fresh
# tender-e2e/debian-sys host after setup.sh: ansible.json, compared by
# TestPartedFleet (tasks/builtin/system/parted_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/parted/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
