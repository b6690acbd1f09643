#!/bin/sh
# gen.sh records community.general 6.6.2's ufw (under ansible-core 2.14)
# on a fresh fleet host with NET_ADMIN (tender-e2e/debian-sys, which
# carries ufw and iptables): ansible.json, compared by TestUfwFidelity
# (ufw_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/ufw/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" netadmin "$here" tasks.yml ansible.json
