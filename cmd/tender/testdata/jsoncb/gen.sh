#!/usr/bin/env bash
# Records the document Ansible's json stdout callback prints for pb.yml
# (ansible-playbook from ansible-core 2.14 with Debian's ansible package,
# which ships ansible.posix.json). Rerun by hand; callback_test.go runs
# tender play with the same settings and compares.
set -euo pipefail
cd "$(dirname "$0")"
ANSIBLE_NOCOLOR=1 ANSIBLE_STDOUT_CALLBACK=json ANSIBLE_SHOW_CUSTOM_STATS=1 ANSIBLE_FORKS=1 \
	ansible-playbook -i hosts pb.yml 2>/dev/null | sed "s#$PWD/#@DIR@/#g" >ansible.json || true
echo "recorded with $(ansible --version 2>/dev/null | sed -n 1p)"
# The junit callback's report for pb.yml and fail.yml (one file per run in
# JUNIT_OUTPUT_DIR), for --junit.
for pb in pb fail; do
	out=$(mktemp -d)
	ANSIBLE_NOCOLOR=1 ANSIBLE_CALLBACKS_ENABLED=junit JUNIT_OUTPUT_DIR="$out" ANSIBLE_FORKS=1 \
		ansible-playbook -i hosts $pb.yml >/dev/null 2>&1 || true
	sed "s#$PWD/#@DIR@/#g" "$out"/*.xml >ansible-junit-$pb.xml
	rm -rf "$out"
done
