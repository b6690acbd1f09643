#!/bin/sh
# gen.sh records community.general 6.6.2's filesystem on a fresh
# tender-e2e/debian-sys host after setup.sh: ansible.json, compared by
# TestFilesystemFleet (tasks/builtin/system/filesystem_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/filesystem/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
