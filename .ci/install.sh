#!/usr/bin/env bash
# Installs what `make demo` and `make test` need on a fresh Debian machine
# that has Go and a Docker engine, and nothing else: once, idempotently
# (an installed package is left alone, and a machine that has them all runs
# no apt-get at all). The Makefile runs it before the demo and the tests, and
# .ci/run through `make test`, so the README's two commands are the whole
# set-up.
#
# Usage: .ci/install.sh demo|test|unit
#
#   unit  what the unit tests need: gcc (cgo, for the SQLite ledger), git,
#         postgresql (the ledger's PostgreSQL tests start a throwaway server
#         of their own from its binaries; the cluster Debian's package makes
#         is not used), shellcheck (make lint checks the modules' scripts),
#         chromium (tender serve's pages are tested in it, headless)
#   demo  make, gcc and git, plus what builds and runs the fleet:
#         debootstrap (the images are built offline from the machine's own
#         mirror), dpkg-dev (the fleet's local apt repository), python3 (its
#         wheels), openssh-client (ssh-keygen), docker-compose, rsync (the
#         controller's side of synchronize); and a Docker engine
#   test  demo's and unit's, plus rpm (rpmbuild) and createrepo-c (the rh
#         hosts' local rpm repository), ansible-core and ansible (the
#         reference the differential tests compare with), and
#         qemu-system-x86 and qemu-utils (the fleet's virtual machine,
#         e2e/fleet/run-vm.sh)
#
# Exits non-zero with a message saying what to do when it cannot: a package
# is missing and this is neither root nor allowed password-less sudo, or the
# Docker engine does not answer.
set -euo pipefail

mode=${1:-}
case $mode in
unit) what="E2E=0 make test" pkgs=(make gcc git postgresql shellcheck chromium busybox) ;;
demo) what="make demo" pkgs=(make gcc git debootstrap dpkg-dev python3 openssh-client docker-compose rsync) ;;
test) what="make test" pkgs=(make gcc git debootstrap dpkg-dev python3 openssh-client docker-compose rsync postgresql shellcheck chromium busybox rpm createrepo-c ansible-core ansible qemu-system-x86 qemu-utils) ;;
*)
	echo "usage: $0 demo|test|unit" >&2
	exit 2
	;;
esac

export PATH="$PATH:/usr/local/go/bin"
if ! command -v go >/dev/null; then
	echo "install: Go is not installed (https://go.dev/doc/install); tender needs Go 1.26" >&2
	exit 1
fi

need=()
for pkg in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if ((${#need[@]})); then
	if ((EUID == 0)); then
		sudo=()
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		sudo=(sudo -n)
	else
		echo "install: $what needs these Debian packages, and installing them needs root:" >&2
		echo "    sudo apt-get install --no-install-recommends ${need[*]}" >&2
		exit 1
	fi
	echo "install: apt-get install ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get -o Acquire::Retries=3 update -qq
	"${sudo[@]}" apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 -o Acquire::Retries=3 "${need[@]}" >/dev/null
fi

if [[ $mode != unit ]]; then
	if ! out=$(docker info --format '{{.ServerVersion}}' 2>&1); then
		echo "install: the Docker engine does not answer: $(grep -v '^$' <<<"$out" | tail -n 1)" >&2
		echo "    $what runs the fleet's hosts as containers: start dockerd (and be in the docker group, or root)." >&2
		[[ $mode == test ]] && echo "    E2E=0 make test runs every test but the fleet's." >&2
		exit 1
	fi
fi
