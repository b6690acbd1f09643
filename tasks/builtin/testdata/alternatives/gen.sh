#!/bin/sh
# gen.sh records community.general's alternatives (Debian's ansible) on a
# fresh tender-e2e/debian-sys host: ansible.json, compared by
# TestAlternativesFleet (tasks/builtin/system/alternatives_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/alternatives/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
