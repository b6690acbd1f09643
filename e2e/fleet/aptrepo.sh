#!/usr/bin/env bash
# Builds the fleet's local APT repository, which the containers see
# read-only at /srv/tender-apt (docker-compose.yml bind-mounts it; their
# only apt source, apt-sources.list, names it):
#
#   OUT/          flat repository "deb [trusted=yes] file:/srv/tender-apt ./":
#                 tender-hello 1.0 (built here) and a few small real Debian
#                 packages without dependencies beyond libc6 (hello, tree, pv)
#   OUT/v2/       flat repository holding tender-hello 2.0 only; a test adds
#                 "deb [trusted=yes] file:/srv/tender-apt/v2 ./" to a host's
#                 sources to make an upgrade available (state=latest)
#
# tender-hello is built with dpkg-deb from fixed inputs (owner root, fixed
# mtimes), so the same script makes the same .debs. The real packages are
# fetched once with `apt-get download` from this machine's apt sources
# (Debian bookworm, the fleet's release) into OUT/../apt-cache and reused
# offline afterwards. The indexes are made by dpkg-scanpackages (dpkg-dev).
#
# Usage: aptrepo.sh [OUT]   (default: e2e/.fleet/apt). Rebuilt only when
# this script changes. Needs dpkg-deb, dpkg-scanpackages and apt-get.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../.fleet/apt}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cache="$out/../apt-cache"
real=(hello tree pv)
inputs=$(sha256sum <"$here/aptrepo.sh" | cut -c1-16)
if [[ -f "$out/.inputs" && "$(cat "$out/.inputs")" == "$inputs" ]]; then
	echo "apt repository $out is up to date"
	exit 0
fi
for t in dpkg-deb dpkg-scanpackages; do
	command -v "$t" >/dev/null || { echo "$t is not installed (apt-get install dpkg-dev)" >&2; exit 1; }
done
export SOURCE_DATE_EPOCH=1700000000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build VERSION DIR: tender-hello VERSION into DIR.
build() {
	local v=$1 dir=$2 root="$work/tender-hello-$1"
	mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/tender-hello" "$root/etc"
	cat >"$root/DEBIAN/control" <<CTL
Package: tender-hello
Version: $v
Architecture: all
Maintainer: tender e2e <e2e@tender.invalid>
Section: misc
Priority: optional
Description: tender's test package, version $v
 Installs /usr/bin/tender-hello (prints its version), a data file and a
 conffile, so that install, upgrade, remove and purge can be observed.
CTL
	echo /etc/tender-hello.conf >"$root/DEBIAN/conffiles"
	printf '#!/bin/sh\necho "tender-hello %s"\n' "$v" >"$root/usr/bin/tender-hello"
	echo "$v" >"$root/usr/share/tender-hello/version"
	echo "greeting=hello" >"$root/etc/tender-hello.conf"
	chmod 0755 "$root/usr/bin/tender-hello" "$root/DEBIAN"
	chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/usr/share/tender-hello/version" "$root/etc/tender-hello.conf"
	find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	dpkg-deb --root-owner-group -Zgzip --build "$root" "$dir/tender-hello_${v}_all.deb" >/dev/null
}

rm -rf "$out.new" && mkdir -p "$out.new" "$cache"
build 1.0 "$out.new"
for p in "${real[@]}"; do
	if ! ls "$cache/${p}_"*.deb >/dev/null 2>&1; then
		(cd "$cache" && apt-get download -q -o APT::Sandbox::User=root "$p" >/dev/null) || { echo "apt-get download $p failed" >&2; exit 1; }
	fi
	cp "$cache/${p}_"*.deb "$out.new/"
done
# index DIR: the flat index of DIR (dpkg-scanpackages descends into
# subdirectories, so v2/ is made after the top one is indexed).
index() { (cd "$1" && dpkg-scanpackages -m . /dev/null 2>/dev/null >Packages && gzip -9n <Packages >Packages.gz); }
index "$out.new"
mkdir "$out.new/v2"
build 2.0 "$out.new/v2"
index "$out.new/v2"
echo "$inputs" >"$out.new/.inputs"
rm -rf "$out" && mv "$out.new" "$out"
echo "built apt repository $out: $(cd "$out" && ls *.deb v2/*.deb | tr '\n' ' ')"
