#!/bin/sh
# gen.sh records ansible.posix 1.5.4's at (ansible-core 2.14) on a fresh
# tender-e2e/debian-sys host after setup.sh: ansible.json, compared by
# TestAtFleet (at_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/at/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
