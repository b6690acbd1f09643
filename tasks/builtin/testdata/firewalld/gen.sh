#!/bin/sh
# gen.sh records ansible.posix 1.5.4's firewalld (under ansible-core
# 2.14) on a fresh systemd host running firewalld, with NET_ADMIN
# (tender-e2e/debian-firewalld): ansible.json, compared by
# TestFirewalldFidelity (firewalld_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/firewalld/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../service_facts/record.sh" firewalld "$here" tasks.yml ansible.json
