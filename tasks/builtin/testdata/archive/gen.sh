#!/bin/sh
# gen.sh records community.general 6.6.2's archive on a fresh
# tender-e2e/debian-sys host after setup.sh: ansible.json, compared by
# TestArchiveFleet (files/archive_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/archive/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
