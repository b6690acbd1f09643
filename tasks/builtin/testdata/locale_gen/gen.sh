#!/bin/sh
# gen.sh records community.general 6.6.2's locale_gen on a fresh
# tender-e2e/debian-sys host: ansible.json, compared by
# TestLocaleGenFleet (tasks/builtin/system/locale_gen_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/locale_gen/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
