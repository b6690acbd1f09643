#!/usr/bin/env bash
# Records the names of the filter, test and lookup plugins ansible-core
# 2.14 documents as ansible.builtin (ansible-doc -t KIND -l), one file a
# kind. Rerun by hand with Debian's ansible-core; TestPluginsDocumented
# checks that plugins_list.go answers for each. gen_options.py records
# their options from these lists.
set -euo pipefail
cd "$(dirname "$0")"
for kind in filter test lookup; do
	ansible-doc -t "$kind" -l 2>/dev/null | awk '{print $1}' | sed -n 's/^ansible\.builtin\.//p' | sort >"$kind.txt"
done
