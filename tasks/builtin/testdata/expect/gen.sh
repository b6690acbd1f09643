#!/bin/sh
# gen.sh records ansible-core 2.14's expect (with Debian's pexpect 4.8) on
# a fresh fleet host (tender-e2e/debian-sys): ansible.json, compared by
# TestExpectFidelity (expect_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/expect/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" sys "$here" tasks.yml ansible.json
