#!/usr/bin/env bash
# Records what the ansible command (ansible-core 2.14) prints on stdout,
# and its exit status, for each case of cases.txt, run in this directory
# with -i hosts -f 1. Rerun by hand (needs ansible-core: bash .ci/install.sh
# test installs it); the Go test (adhoc_test.go) runs tender run with the
# same arguments and compares.
set -euo pipefail
cd "$(dirname "$0")"
export ANSIBLE_NOCOLOR=1 ANSIBLE_HOST_KEY_CHECKING=0 ANSIBLE_LOCALHOST_WARNING=0 \
	ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_RETRY_FILES_ENABLED=0
rm -f ./*.out
i=0
while IFS='|' read -r name args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	rc=0
	eval "ansible -i hosts -f 1 $args" >"$name.out" 2>/dev/null || rc=$?
	echo "exit $rc" >>"$name.out"
	i=$((i + 1))
done <cases.txt
echo "recorded $i cases with $(ansible --version 2>/dev/null | sed -n 1p)"
