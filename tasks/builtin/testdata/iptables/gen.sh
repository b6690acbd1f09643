#!/bin/sh
# gen.sh records ansible-core 2.14's iptables on a fresh fleet host with
# NET_ADMIN (tender-e2e/debian-sys, which carries iptables): ansible.json,
# compared by TestIptablesFidelity (iptables_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/iptables/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" netadmin "$here" tasks.yml ansible.json
