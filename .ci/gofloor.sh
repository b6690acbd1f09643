#!/usr/bin/env bash
# Checks that go.mod's go line is the lowest the dependencies allow: the
# highest go line among the modules tender requires. A go line above it
# would shut out control planes on an older toolchain for nothing; one
# below it does not build. (The code's own needs are checked by go vet's
# stdversion analyzer, which refuses library symbols newer than the go
# line, and by the compiler, which refuses newer language features.)
set -euo pipefail
cd "$(dirname "$0")/.."
ours=$(go list -m -f '{{.GoVersion}}')
need=$(go list -m -f '{{if not .Main}}{{.GoVersion}}{{end}}' all | grep . | sort -V | tail -1)
if [ "$ours" != "$need" ]; then
	echo "go floor: go.mod says go $ours, the dependencies need go $need: make it go $need" >&2
	go list -m -f '{{if not .Main}}{{.GoVersion}} {{.Path}} {{.Version}}{{end}}' all | grep . | sort -V | tail -5 >&2
	exit 1
fi
echo "go floor: go $ours (what $(go list -m -f '{{if not .Main}}{{.GoVersion}} {{.Path}}{{end}}' all | grep "^$need " | head -1 | cut -d' ' -f2) requires)"
