#!/usr/bin/env bash
# Builds the e2e fleet's images offline: no registry is reachable, so each
# image starts from a Debian bookworm root made by debootstrap from the
# machine's own apt mirror, imported into Docker, then given sshd and the
# test key by a small Dockerfile.
#
#   tender-e2e/debian-py   Debian with python3 (ansible-playbook can run on it)
#   tender-e2e/debian      Debian without python (all tender needs)
#
# Usage: e2e/fleet/build-images.sh [--force]. Images that exist are kept
# unless --force is given. Needs root (debootstrap) and a Docker engine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state="$here/../.fleet"
mkdir -p "$state"

force=false
[[ "${1:-}" == "--force" ]] && force=true

# The mirror is the one this machine's apt already uses, never a hard-coded host.
mirror() {
	local f uri
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f "$f" ]] || continue
		uri=$(awk '
			/^$/ { if (u != "" && s ~ /bookworm( |$)/ && c ~ /main/) { print u; exit } u = s = c = "" }
			/^URIs:/ { u = $2 } /^Suites:/ { $1 = ""; s = $0 } /^Components:/ { $1 = ""; c = $0 }
			END { if (u != "" && s ~ /bookworm( |$)/ && c ~ /main/) print u }' "$f" | head -n1)
		[[ -n "$uri" ]] && { echo "$uri"; return; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -f "$f" ]] || continue
		uri=$(awk '$1 == "deb" && $3 == "bookworm" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f")
		[[ -n "$uri" ]] && { echo "$uri"; return; }
	done
	echo "no bookworm mirror found in /etc/apt/sources.list*" >&2
	return 1
}

have_image() { docker image inspect "$1" >/dev/null 2>&1; }

base_image() { # name, extra packages
	local name=$1 include=$2 root
	if ! $force && have_image "$name-root"; then return; fi
	root=$(mktemp -d "$state/root.XXXXXX")
	trap 'rm -rf "$root"' RETURN
	echo "debootstrap $name from $(mirror) ..."
	debootstrap --variant=minbase --include="$include" bookworm "$root" "$(mirror)" >"$state/${name//\//_}.debootstrap.log" 2>&1 ||
		{ tail -20 "$state/${name//\//_}.debootstrap.log" >&2; return 1; }
	rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
	tar -C "$root" -c . | docker import - "$name-root" >/dev/null
}

# The test key: made once, kept under e2e/.fleet (git-ignored).
[[ -f "$state/id_ed25519" ]] || ssh-keygen -q -t ed25519 -N '' -C tender-e2e -f "$state/id_ed25519"

common=openssh-server,sudo,iproute2,procps,ca-certificates
base_image tender-e2e/debian-py "$common,python3,python3-apt"
base_image tender-e2e/debian "$common"

for name in tender-e2e/debian-py tender-e2e/debian; do
	ctx=$(mktemp -d "$state/ctx.XXXXXX")
	cp "$here/Dockerfile" "$ctx/"
	cp "$state/id_ed25519.pub" "$ctx/authorized_keys"
	docker build -q --build-arg BASE="$name-root" -t "$name" "$ctx" >/dev/null
	rm -rf "$ctx"
	echo "built $name"
done
