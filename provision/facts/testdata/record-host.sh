#!/usr/bin/env bash
# Records, from one real host of the e2e fleet, the fact script's raw output
# and ansible's `setup` facts taken from the same host a moment apart, so
# the tests can compare tender's parse of the one with the other; then the
# names of the facts setup returns for a table of gather_subset and filter
# values (record-subsets.py, into subsets.json).
# Needs ansible-core and the fleet's images (e2e/fleet/build-images.sh).
#
# Usage: provision/facts/testdata/record-host.sh [--rich|--busybox] [IMAGE] (default tender-e2e/debian-py)
#
# --busybox records a busybox host (into hosts/<image>+busybox): a static
# busybox ($BUSYBOX, else the one on $PATH) provides sh, awk, ip, date,
# stat, ls and timeout, first on $PATH, and /bin/sh, for tender's script
# and Ansible.
# --rich records a host with more to show (into hosts/<image>+rich): IPv6
# on, a veth pair with secondary and labelled (eth0:1-style) addresses, a
# bridge, and the local facts of testdata/facts.d in /etc/ansible/facts.d
# (INI, JSON, executables, a failing one, garbage, an empty file).
# The OpenRC image runs as its Dockerfile says (a tmpfs on /run,
# container=docker, openrc-init as PID 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rich=false busybox=
case "${1:-}" in
--rich) rich=true; shift ;;
--busybox) busybox=${BUSYBOX:-$(command -v busybox || true)}; shift
	[[ -n "$busybox" ]] || { echo "no busybox: set BUSYBOX to a static busybox binary" >&2; exit 1; } ;;
esac
image=${1:-tender-e2e/debian-py}
name=tender-facts-$$
port=$((23000 + RANDOM % 1000))
tmp=$(mktemp -d)
key="$tmp/id_ed25519"
ssh-keygen -q -t ed25519 -N '' -f "$key"
chmod 644 "$key.pub"
args=(-p "127.0.0.1:$port:22" -v "$key.pub:/etc/ssh/tender_authorized_keys:ro")
[[ "$image" == *debian-openrc* ]] && args+=(--tmpfs /run -e container=docker)
out="$here/hosts/${image//\//_}"
if $rich; then
	out+="+rich"
	args+=(--cap-add NET_ADMIN --sysctl net.ipv6.conf.all.disable_ipv6=0 --sysctl net.ipv6.conf.lo.disable_ipv6=0
		-v "$here/facts.d:/etc/ansible/facts.d:ro")
fi
if [[ -n "$busybox" ]]; then
	out+="+busybox"
	args+=(-v "$busybox:/bin/busybox:ro")
fi
docker run -d --rm --name "$name" "${args[@]}" "$image" >/dev/null
trap 'docker rm -f "$name" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
if [[ -n "$busybox" ]]; then
	docker exec "$name" sh -c 'for a in sh awk ip date stat ls timeout; do ln -sf /bin/busybox /usr/local/sbin/$a; done
		ln -sf /bin/busybox /bin/sh'
fi
if $rich; then
	docker exec "$name" sh -c '
		ip link add dummy0 type veth peer name dummy1 && ip link set dummy0 up && ip link set dummy1 up
		ip addr add 10.9.0.1/24 dev dummy0
		ip addr add 10.9.0.2/24 dev dummy0
		ip addr add 10.9.0.3/24 label dummy0:1 dev dummy0
		ip addr add 10.8.0.1/16 label dummy0:x dev dummy0
		ip addr add fd00:9::1/64 dev dummy0
		ip link add br-test type bridge && ip link set br-test up
		ip addr add 192.168.77.1/24 dev br-test'
fi
opts=(-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes)
for _ in $(seq 50); do ssh -q "${opts[@]}" -i "$key" -p "$port" root@127.0.0.1 true && break; sleep 0.2; done
mkdir -p "$out"
cat "$here/../facts.sh" "$here/../python.sh" |
	ssh -q "${opts[@]}" -i "$key" -p "$port" root@127.0.0.1 sh >"$out/script.out"
printf 'h ansible_host=127.0.0.1 ansible_port=%s ansible_user=root ansible_ssh_private_key_file=%s ansible_ssh_common_args="%s"\n' \
	"$port" "$key" "${opts[*]}" >"$tmp/inventory"
ANSIBLE_LOAD_CALLBACK_PLUGINS=1 ANSIBLE_STDOUT_CALLBACK=json ansible -i "$tmp/inventory" h -m setup 2>/dev/null |
	/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(d["plays"][0]["tasks"][0]["hosts"]["h"]["ansible_facts"], indent=1, sort_keys=True))' >"$out/setup.json"
/usr/bin/python3 "$here/record-subsets.py" "$tmp/inventory" h >"$out/subsets.json"
echo "recorded $out"
