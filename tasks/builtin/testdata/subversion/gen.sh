#!/bin/sh
# gen.sh records ansible-core 2.14's subversion on a fresh
# tender-e2e/debian-sys host after setup.sh: ansible.json, compared by
# TestSubversionFleet (subversion_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/subversion/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
