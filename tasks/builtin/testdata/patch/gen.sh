#!/bin/sh
# gen.sh records ansible.posix 1.5.4's patch (ansible-core 2.14) on a
# fresh tender-e2e/debian-sys host after setup.sh: ansible.json,
# compared by TestPatchFleet (tasks/builtin/files/patch_e2e_test.go).
#
# The tasks name the controller's patches as /tmp/tender-patch-files/X:
# this script puts files/ there for ansible-playbook (the test resolves
# those names in files/ itself).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/patch/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ctl=/tmp/tender-patch-files
rm -rf "$ctl"
cp -R "$here/files" "$ctl"
trap 'rm -rf "$ctl"' EXIT
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
