#!/bin/sh
# gen.sh records what the real Ansible (Debian's ansible-core, 2.14) says
# about every inventory fixture, for inventory's golden tests. Rerun it by
# hand after adding a fixture; CI never runs it. Usage: sh gen.sh [FIXTURE...]
#
# Each fixture is a directory NAME/ holding inventory files and:
#   sources   the -i arguments, one per line, relative to NAME/ (default: hosts)
#   hosts.txt optional: hosts to record with --host, one per line
#   graph.txt optional: groups to record with --graph (and --graph --vars)
#   patterns.txt optional: host patterns to record with `ansible PATTERN --list-hosts`
#   playbook_dir optional: a directory (relative to NAME/) passed as --playbook-dir
# and gets NAME/expected/: list.json, host_H.json, graph_G.txt,
# graphvars_G.txt, patterns.out (PATTERN<TAB>host host ... or !ERROR).
#
# Broken inputs live in errors/: for each errors/X.{ini,yml}, the message
# of the exception Ansible's ini or yaml plugin raises is written to
# errors/X.ansible.
set -eu
cd "$(dirname "$0")"
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
fixtures="$*"
[ -n "$fixtures" ] || fixtures=$(for d in */; do [ "$d" = errors/ ] || echo "${d%/}"; done)

for f in $fixtures; do
	[ -d "$f" ] || continue
	out="$f/expected"
	rm -rf "$out"
	mkdir -p "$out"
	set --
	if [ -f "$f/sources" ]; then
		while IFS= read -r s; do [ -n "$s" ] && set -- "$@" -i "$f/$s"; done <"$f/sources"
	else
		set -- -i "$f/hosts"
	fi
	if [ -f "$f/playbook_dir" ]; then
		set -- "$@" --playbook-dir "$f/$(cat "$f/playbook_dir")"
	fi
	ansible-inventory "$@" --list >"$out/list.json"
	if [ -f "$f/hosts.txt" ]; then
		while IFS= read -r h; do
			[ -n "$h" ] && ansible-inventory "$@" --host "$h" >"$out/host_$h.json"
		done <"$f/hosts.txt"
	fi
	if [ -f "$f/graph.txt" ]; then
		while IFS= read -r g; do
			[ -n "$g" ] || continue
			ansible-inventory "$@" --graph "$g" >"$out/graph_$g.txt"
			ansible-inventory "$@" --graph "$g" --vars >"$out/graphvars_$g.txt"
		done <"$f/graph.txt"
	fi
	if [ -f "$f/patterns.txt" ]; then
		: >"$out/patterns.out"
		while IFS= read -r p; do
			[ -n "$p" ] || continue
			if res=$(ansible "$@" "$p" --list-hosts 2>/dev/null); then
				hosts=$(printf '%s\n' "$res" | sed -n 's/^    //p' | tr '\n' ' ' | sed 's/ $//')
			else
				hosts='!ERROR'
			fi
			printf '%s\t%s\n' "$p" "$hosts" >>"$out/patterns.out"
		done <"$f/patterns.txt"
	fi
	echo "recorded $f"
done

# values.txt: INI values through the ini plugin's _parse_value (literal_eval);
# shlex.txt: host lines through ansible's shlex_split(comments=True).
/usr/bin/python3 - >values.jsonl <<'PY'
import json
from ansible.plugins.inventory.ini import InventoryModule
for line in open('values.txt', encoding='utf-8').read().split('\n')[:-1]:
    try:
        v = InventoryModule._parse_value(line)
        out = json.dumps(v, sort_keys=True, indent=4, ensure_ascii=False)
    except Exception as e:
        out = '!' + type(e).__name__
    print(json.dumps({'in': line, 'out': out}, ensure_ascii=False))
PY
/usr/bin/python3 - >shlex.jsonl <<'PY'
import json
from ansible.utils.shlex import shlex_split
for line in open('shlex.txt', encoding='utf-8').read().split('\n')[:-1]:
    try:
        out = shlex_split(line, comments=True)
    except ValueError as e:
        out = str(e)
    print(json.dumps({'in': line, 'out': out}, ensure_ascii=False))
PY
echo "recorded values.jsonl shlex.jsonl"

for e in errors/*.ini errors/*.yml; do
	[ -f "$e" ] || continue
	case "$e" in *.ini) plugin=ini ;; *) plugin=yaml ;; esac
	/usr/bin/python3 - "$plugin" "$e" >"${e%.*}.ansible" <<'PY'
import sys
from ansible.plugins.loader import inventory_loader
from ansible.parsing.dataloader import DataLoader
from ansible.inventory.data import InventoryData
plugin, path = sys.argv[1], sys.argv[2]
p = inventory_loader.get(plugin)
try:
    p.parse(InventoryData(), DataLoader(), path)
    print("NO ERROR")
except Exception as e:
    print(str(e))
PY
	echo "recorded $e"
done
