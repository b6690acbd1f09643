#!/bin/sh
# gen.sh records ansible-core 2.14's rpm_key on a fresh rh host of the
# fleet (tender-e2e/rh after setup.sh, which serves this directory on
# the host's 127.0.0.1:8080): ansible.json, compared by TestRpmKeyFleet
# (rpm_key_e2e_test.go). key1.asc and key2.asc (with an encryption
# subkey) are throwaway public keys made once with gpg --quick-gen-key.
#
# Run by hand from anywhere: sh tasks/builtin/testdata/rpm_key/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" rh "$here" tasks.yml ansible.json
