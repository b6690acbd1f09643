#!/bin/sh
# gen.sh records community.general's timezone (Debian's ansible) on a
# fresh tender-e2e/debian-sys host: ansible.json, compared by
# TestTimezoneFleet (tasks/builtin/system/timezone_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/timezone/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
