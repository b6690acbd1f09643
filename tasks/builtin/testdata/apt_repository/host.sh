#!/bin/sh
# host.sh starts and prepares the host of one fidelity case of the Debian
# package-management modules (apt_repository, apt_key, dpkg_selections,
# package_facts, apt_upgrade, dnf) and prints its container id. gen.sh (ansible-core's
# side) and the e2e tests (tender's side) both start their hosts with it,
# so that both tools meet identical hosts.
#
# Usage: host.sh CASE [PUBKEY]
#
# CASE is a directory under tasks/builtin/testdata holding: image (the
# fleet image's name), tasks.yml, optionally debs (Debian packages of
# this machine's release to install first: they are fetched once with
# apt-get download into ~/.cache/tender/debs) and setup.sh (run as root on
# the host before the tasks). PUBKEY, when given, is the public key sshd
# accepts for root (gen.sh logs in with it).
#
# The host is a fresh container of the image, with the fleet's local apt
# repository (e2e/fleet/aptrepo.sh) at /srv/tender-apt, its rpm
# repositories (e2e/fleet/rpmrepo.sh) at /srv/tender-rpm, and
# tasks/builtin/testdata at /srv/testdata, all read-only; its
# /etc/apt/sources.list is a copy of the fleet's (a copy, not a mount:
# apt_repository rewrites it). Port 22 is published on 127.0.0.1 only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
testdata=$(cd "$here/.." && pwd)
fleet=$(cd "$here/../../../../e2e/fleet" && pwd)
name=$1 pubkey=${2:-}
case=$testdata/$name
[ -f "$case/image" ] || { echo "host.sh: no case $name" >&2; exit 2; }
image=$(cat "$case/image")
set -- docker run -d --init --hostname debhost -p 127.0.0.1::22 \
	-v "$fleet/../.fleet/apt:/srv/tender-apt:ro" -v "$testdata:/srv/testdata:ro"
[ -d "$fleet/../.fleet/rpm" ] && set -- "$@" -v "$fleet/../.fleet/rpm:/srv/tender-rpm:ro"
[ -n "$pubkey" ] && set -- "$@" -v "$pubkey:/etc/ssh/tender_authorized_keys:ro"
id=$("$@" "$image")
fail() { docker rm -f "$id" >/dev/null 2>&1; echo "host.sh: $*" >&2; exit 1; }
docker exec -i "$id" sh -c 'cat >/etc/apt/sources.list' <"$fleet/apt-sources.list" || fail "cannot write sources.list"
if [ -f "$case/debs" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/tender/debs
	mkdir -p "$cache"
	exec 9>"$cache.lock"
	flock 9
	for p in $(cat "$case/debs"); do
		ls "$cache/${p}_"*.deb >/dev/null 2>&1 ||
			(cd "$cache" && apt-get download -q -o APT::Sandbox::User=root "$p" >/dev/null) || fail "apt-get download $p failed"
	done
	flock -u 9
	docker exec "$id" mkdir -p /tmp/debs
	for p in $(cat "$case/debs"); do
		docker cp "$(ls "$cache/${p}_"*.deb | head -n1)" "$id:/tmp/debs/" >/dev/null || fail "docker cp $p"
	done
	docker exec "$id" sh -c 'dpkg -i /tmp/debs/*.deb >/tmp/debs.log 2>&1 && rm -rf /tmp/debs' ||
		fail "installing $(cat "$case/debs"): $(docker exec "$id" cat /tmp/debs.log)"
fi
if [ -f "$case/setup.sh" ]; then
	docker exec -i "$id" sh -s <"$case/setup.sh" >/dev/null || fail "$name/setup.sh failed"
fi
echo "$id"
