#!/bin/sh
# Records `ansible-config dump` (ansible-core 2.14) for the scenarios that
# configdump_test.go replays: each NAME.cfg is the ansible.cfg of a
# working directory (none for "nocfg"), NAME.env holds extra environment
# (KEY=VALUE lines). The root of the scratch directory is written @ROOT@,
# and DEFAULT_LOCAL_TMP (a fresh path each run) is left out.
# Run by hand from this directory: sh gen.sh
set -eu
here=$(pwd)
for s in nocfg cfg cfgenv; do
	root=$(mktemp -d)
	mkdir -p "$root/home" "$root/cwd"
	[ -f "$s.cfg" ] && cp "$s.cfg" "$root/cwd/ansible.cfg"
	extra=""
	[ -f "$s.env" ] && extra=$(sed "s|@ROOT@|$root|g" "$s.env")
	for mode in only-changed all; do
		flag=""
		[ "$mode" = only-changed ] && flag=--only-changed
		(cd "$root/cwd" && env -i PATH="$PATH" HOME="$root/home" $extra ansible-config dump $flag) |
			grep -v '^DEFAULT_LOCAL_TMP(' | sed "s|$root|@ROOT@|g" >"$here/$s.$mode.txt"
	done
	rm -rf "$root"
done
