#!/bin/sh
# gen.sh records ansible-core 2.14's service_facts on the fleet's SysV,
# systemd and OpenRC hosts (record.sh, each after its setup_KIND.sh):
# ansible_KIND.json, compared by TestServiceFactsFleet
# (service_facts_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/service_facts/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
for kind in sys systemd openrc; do
	SETUP=setup_$kind.sh sh "$here/record.sh" "$kind" "$here" tasks.yml "ansible_$kind.json"
done
