#!/bin/sh
# gen.sh records ansible-core 2.14's yum_repository on a fresh rh host of
# the fleet (tender-e2e/rh after setup.sh): ansible.json, compared by
# TestYumRepositoryFleet (yum_repository_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/yum_repository/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" rh "$here" tasks.yml ansible.json
