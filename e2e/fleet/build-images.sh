#!/usr/bin/env bash
# Builds the e2e fleet's images offline: no registry is reachable, so each
# image starts from a Debian bookworm root made by debootstrap from the
# machine's own apt mirror, imported into Docker, then given sshd's setup
# by a small Dockerfile.
#
#   tender-e2e/debian-py   Debian with python3 (ansible-playbook can run on it)
#   tender-e2e/debian      Debian without python (all tender needs)
#   tender-e2e/debian-sys  debian-py plus cron, kmod, git, subversion,
#                          iptables, python3-pexpect, acl, at, patch,
#                          locales, make, tzdata, rsync, ufw, bzip2,
#                          xz-utils, zip, parted, dosfstools and
#                          xfsprogs, for the modules that drive those
#                          programs (cron, modprobe, git, subversion,
#                          iptables, expect, and the collections' acl,
#                          at, patch, locale_gen, make, timezone,
#                          synchronize, ufw, archive, filesystem,
#                          parted), run by both tools
#   tender-e2e/debian-systemd  debian-py plus systemd as PID 1 (see
#                          Dockerfile.debian-systemd for how it must run)
#   tender-e2e/debian-firewalld  debian-systemd plus dbus, netbase and
#                          firewalld, whose daemon systemd starts: the
#                          host of the firewalld module, run by both
#                          tools (it needs NET_ADMIN besides
#                          debian-systemd's flags: run-systemd.sh)
#   tender-e2e/debian-node debian-py plus Debian's nodejs and npm
#                          (installed by apt-get: see aptget): the host
#                          of the npm module, run by both tools
#   tender-e2e/debian-openrc  debian-py plus OpenRC, openrc-init as PID 1
#                          and sshd as OpenRC's ssh service (see
#                          Dockerfile.debian-openrc for how it must run)
#   tender-e2e/rh          debian-py's packages plus Debian's dnf, python3-dnf,
#                          rpm and createrepo-c, with release files that
#                          declare a RedHat-family distribution
#                          (Dockerfile.rh, rh/): a dnf host for both tools
#
# An image whose short name has a Dockerfile.<name> beside Dockerfile gets
# that file built on top of it; an image named in layers gets the
# Dockerfile of the image it names first (debian-firewalld boots as
# debian-systemd does).
#
# Usage: build-images.sh [--force] [IMAGE...]   (default: all of them)
#
# Several test binaries may call it at once, each for the images it needs:
# every image has its own lock, so an image is built once and the others
# find it up to date.
#
# Images are cached: each carries a label with the hash of its inputs (this
# script, the Dockerfiles and rh/) and is rebuilt only when they change, or with
# --force. Needs root (debootstrap) and a Docker engine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state="$here/../.fleet"
mkdir -p "$state"

force=false
[[ "${1:-}" == "--force" ]] && { force=true; shift; }
only=" $* "
inputs=$(cat "$here/build-images.sh" "$here"/Dockerfile* "$here"/rh/* | sha256sum | cut -c1-16)
ROOT=

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

label() { docker image inspect -f '{{ index .Config.Labels "tender.inputs" }}' "$1" 2>/dev/null || true; }

# root_image makes NAME-root:TAG, TAG naming the package list and the
# recipe's number (raise it when root_image changes what it makes), so a
# root is debootstrapped again only when one of them changes.
recipe=2
# aptget names the packages installed by apt-get in an image's new root
# after debootstrap: those whose dependencies debootstrap's resolver
# cannot follow (npm's name packages that other packages provide).
declare -A aptget=([tender-e2e/debian-node]="nodejs npm")
root_image() { # name, packages
	local name=$1 include=$2 root log tag extra=${aptget[$1]:-}
	tag=$(echo "$recipe $include${extra:+ apt-get $extra}" | sha256sum | cut -c1-12)
	ROOT="$name-root:$tag"
	if ! $force && docker image inspect "$ROOT" >/dev/null 2>&1; then return; fi
	command -v debootstrap >/dev/null || { echo "debootstrap is not installed (.ci/install.sh demo installs it)" >&2; return 1; }
	((EUID == 0)) || { echo "building $name's root needs root (debootstrap): run this as root" >&2; return 1; }
	root=$(mktemp -d "$state/root.XXXXXX")
	log="$state/${name//\//_}.debootstrap.log"
	echo "debootstrap $name from $(mirror) ..."
	# A mirror that drops one download among the thousands that eight
	# roots fetch side by side fails debootstrap; such a failure is
	# tried again, twice, from an empty root.
	local try
	for try in 1 2 3; do
		debootstrap --variant=minbase --include="$include" bookworm "$root" "$(mirror)" >"$log" 2>&1 && break
		if ((try == 3)) || ! grep -q "Couldn't download\|Failed getting release\|Couldn't retrieve" "$log"; then
			tail -20 "$log" >&2
			rm -rf "$root"
			return 1
		fi
		echo "debootstrap $name: a download failed, trying again" >&2
		rm -rf "$root"
		mkdir "$root"
		sleep $((try * 5))
	done
	if [[ -n "$extra" ]] && ! chroot "$root" sh -c "apt-get -o Acquire::Retries=3 update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get -o Acquire::Retries=3 install -y -q --no-install-recommends $extra" >>"$log" 2>&1; then
		tail -20 "$log" >&2
		rm -rf "$root"
		return 1
	fi
	rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
	# Empty package lists are lists never updated: dated 1970, as Ansible
	# and tender read the cache's age from the directory's time, so that
	# cache_valid_time asks for an update however new the image is. (The
	# tar keeps the time; a Dockerfile step could not, as Docker records
	# no layer for a directory whose time alone changed.)
	touch -d @0 "$root"/var/lib/apt/lists
	tar -C "$root" -c . | docker import - "$ROOT" >/dev/null
	rm -rf "$root"
}

common=openssh-server,sudo,iproute2,procps,ca-certificates,netcat-openbsd
specs=("tender-e2e/debian-py:$common,python3,python3-apt" "tender-e2e/debian:$common"
	"tender-e2e/debian-sys:$common,python3,python3-apt,cron,kmod,git,subversion,iptables,python3-pexpect,acl,at,patch,locales,make,tzdata,rsync,ufw,bzip2,xz-utils,zip,parted,dosfstools,xfsprogs"
	"tender-e2e/debian-systemd:$common,python3,python3-apt,systemd,systemd-sysv"
	"tender-e2e/debian-firewalld:$common,python3,python3-apt,systemd,systemd-sysv,dbus,libpam-systemd,netbase,firewalld"
	"tender-e2e/debian-node:$common,python3,python3-apt"
	"tender-e2e/debian-openrc:$common,python3,python3-apt,openrc"
	"tender-e2e/rh:$common,python3,dnf,python3-dnf,rpm,createrepo-c")
declare -A layers=([tender-e2e/debian-firewalld]=debian-systemd)
# dbuild ARGS: docker build, labelled with the inputs' hash; its output
# (the legacy builder's notice among it) is shown only when it fails.
dbuild() {
	local out
	out=$(docker build -q --label "tender.inputs=$inputs" "$@" 2>&1) || { echo "$out" >&2; return 1; }
}

# build SPEC: the image of SPEC (name:packages), unless it is up to date.
# Each image has its own lock in e2e/.fleet, so that two test binaries
# asking for it at once build it once: the second waits, then finds it
# up to date.
build() {
	local name=${1%%:*} include=${1#*:} extra
	exec {lock}>"$state/${name//\//_}.lock"
	flock "$lock"
	if ! $force && [[ "$(label "$name")" == "$inputs" ]]; then
		echo "$name is up to date"
		return
	fi
	root_image "$name" "$include"
	dbuild --build-arg BASE="$ROOT" -t "$name" "$here"
	for extra in ${layers[$name]:-} "${name#*/}"; do
		extra="$here/Dockerfile.$extra"
		if [[ -f "$extra" ]]; then
			dbuild --build-arg BASE="$name" -f "$extra" -t "$name" "$here"
		fi
	done
	echo "built $name"
}

for want in "$@"; do
	known=false
	for spec in "${specs[@]}"; do [[ "${spec%%:*}" == "$want" ]] && known=true; done
	$known || { echo "build-images.sh: no image $want (known: $(printf '%s ' "${specs[@]%%:*}"))" >&2; exit 2; }
done
# The missing roots are debootstrapped side by side: the mirror, not the
# processor, bounds them.
pids=()
for spec in "${specs[@]}"; do
	[[ "$only" == "  " || "$only" == *" ${spec%%:*} "* ]] || continue
	build "$spec" &
	pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit $failed
