#!/usr/bin/env bash
# Records what ansible-core prints for the CLI cases in cases.txt, run from
# e2e/ on the example inventory and playbook. Rerun by hand after changing
# the examples (needs ansible-core: apt-get install ansible-core); the Go
# tests compare tender's output with the recorded files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../e2e"
export ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
rm -f "$here"/*.out
i=0
while IFS='|' read -r name tool args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	case "$tool" in
	inventory) cmd="ansible-inventory $args" ;;
	play) cmd="ansible-playbook $args" ;;
	esac
	
	eval "$cmd" >"$here/$name.out" 2>/dev/null || echo "exit $?" >>"$here/$name.out"
	i=$((i + 1))
done <"$here/cases.txt"
echo "recorded $i cases with $(ansible --version 2>/dev/null | sed -n 1p)"
