#!/bin/sh
# gen.sh records ansible-core 2.14's git on a fresh tender-e2e/debian-sys
# host after setup.sh: ansible.json, compared by TestGitFleet
# (git_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/git/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
