#!/bin/sh
# gen.sh records ansible-core 2.14's sysvinit on a fresh SysV host of the
# fleet (tender-e2e/debian-sys after setup.sh): ansible.json, compared by
# TestSysvinitFleet (sysvinit_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/sysvinit/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
