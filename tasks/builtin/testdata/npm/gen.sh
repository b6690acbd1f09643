#!/bin/sh
# gen.sh records community.general 6.6.2's npm (under ansible-core 2.14)
# on a fresh fleet host with Debian's nodejs and npm
# (tender-e2e/debian-node) serving its own registry (setup.sh):
# ansible.json, compared by TestNpmFleet (npm_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/npm/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" node "$here" tasks.yml ansible.json
