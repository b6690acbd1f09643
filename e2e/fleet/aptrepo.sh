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
#   OUT/pip/      flat repository holding python3-pip and python3-venv with
#                 the packages they need that the debian-py image lacks, and
#                 python3.11's own packages (python3.11-venv wants exactly
#                 the python3.11 beside it); a case adds
#                 "deb [trusted=yes] file:/srv/tender-apt/pip ./" to install
#                 pip (the s-pip differential case)
#   OUT/wheels/   a pip find-links directory of tiny pure-Python wheels made
#                 by wheels.py (tender-greet 1.0 and 2.0, tender-extra 1.0)
#
# tender-hello is built with dpkg-deb from fixed inputs (owner root, fixed
# mtimes), so the same script makes the same .debs. The real packages are
# fetched once with `apt-get download` from this machine's apt sources
# (Debian bookworm, the fleet's release) into OUT/../apt-cache and reused
# offline afterwards. pip's packages are taken from the bookworm suite
# itself (pkg/bookworm), where debootstrap takes the images' packages, so
# that their exact-version dependencies (python3.11-venv on python3.11)
# match the image's, never from bookworm-security (an older image is
# upgraded by the python3.11 packages here; an image made after a newer
# point release than this repository fails the case's setup: remove
# OUT/../apt-cache/pip and OUT/.inputs and run this again). The indexes
# are made by dpkg-scanpackages (dpkg-dev).
#
# Usage: aptrepo.sh [OUT]   (default: e2e/.fleet/apt). Rebuilt only when
# this script or wheels.py changes. Needs dpkg-deb, dpkg-scanpackages,
# apt-get and python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../.fleet/apt}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Test binaries running side by side take turns (the repository is
# replaced by a rename below).
exec 9>"$out.lock"
flock 9
cache="$out/../apt-cache"
real=(hello tree pv)
pip=(python3-pip python3-venv python3.11-venv python3-pip-whl python3-setuptools-whl
	python3-setuptools python3-pkg-resources python3-wheel python3-distutils python3-lib2to3
	ca-certificates openssl libssl3
	python3.11 python3.11-minimal libpython3.11-stdlib libpython3.11-minimal)
inputs=$(cat "$here/aptrepo.sh" "$here/wheels.py" | sha256sum | cut -c1-16)
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
		(cd "$cache" && apt-get download -q -o APT::Sandbox::User=root -o Acquire::Retries=3 "$p" >/dev/null) || { echo "apt-get download $p failed" >&2; exit 1; }
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
mkdir "$out.new/pip"
for p in "${pip[@]}"; do
	if ! ls "$cache/pip/${p}_"*.deb >/dev/null 2>&1; then
		mkdir -p "$cache/pip"
		(cd "$cache/pip" && apt-get download -q -o APT::Sandbox::User=root -o Acquire::Retries=3 "$p/bookworm" >/dev/null) || { echo "apt-get download $p/bookworm failed" >&2; exit 1; }
	fi
	cp "$cache/pip/${p}_"*.deb "$out.new/pip/"
done
index "$out.new/pip"
python3 "$here/wheels.py" "$out.new/wheels"
echo "$inputs" >"$out.new/.inputs"
rm -rf "$out" && mv "$out.new" "$out"
echo "built apt repository $out: $(cd "$out" && ls *.deb v2/*.deb wheels/*.whl | tr '\n' ' ') and pip/ ($(ls "$out/pip" | grep -c '\.deb$') packages)"
