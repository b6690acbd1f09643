#!/bin/sh
# difftest.sh runs a differential test of tender's inventory against the
# real ansible-inventory on random inventories: COUNT random INI and COUNT
# random YAML inventories (with group_vars/ and host_vars/) from SEED are
# written to a temporary directory, ansible records --list, --graph --vars
# and `ansible 'all:!g1' --list-hosts` for each, and TestDifferential
# compares. Run by hand (about 5 s per inventory): sh difftest.sh [SEED] [COUNT]
set -eu
seed=${1:-1}
count=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
export ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
mkdir "$dir/ini" "$dir/yaml"
(cd "$dir/ini" && python3 "$here/random_ini.py" "$seed" "$count")
(cd "$dir/yaml" && python3 "$here/random_yaml.py" "$seed" "$count")
for d in "$dir"/ini/* "$dir"/yaml/*; do
	src=$d/hosts
	[ -f "$src" ] || src=$d/inv.yml
	ansible-inventory -i "$src" --list >"$d/list.json" 2>"$d/list.err" || rm -f "$d/list.json"
	ansible-inventory -i "$src" --graph --vars >"$d/graph.txt" 2>/dev/null || rm -f "$d/graph.txt"
	ansible -i "$src" 'all:!g1' --list-hosts 2>/dev/null | sed -n 's/^    //p' >"$d/pattern.txt" || true
done
cd "$here/.." && INVENTORY_DIFF_DIR=$dir go test -count=1 -run TestDifferential -v . | tail -40
[ -n "${KEEP:-}" ] || rm -rf "$dir"
