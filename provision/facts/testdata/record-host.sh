#!/usr/bin/env bash
# Records, from one real host of the e2e fleet, the fact script's raw output
# and ansible's `setup` facts taken from the same host a moment apart, so
# the tests can compare tender's parse of the one with the other.
# Needs ansible-core and the fleet's images (e2e/fleet/build-images.sh).
# Usage: provision/facts/testdata/record-host.sh [IMAGE] (default tender-e2e/debian-py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
image=${1:-tender-e2e/debian-py}
name=tender-facts-$$
port=$((23000 + RANDOM % 1000))
tmp=$(mktemp -d)
key="$tmp/id_ed25519"
ssh-keygen -q -t ed25519 -N '' -f "$key"
chmod 644 "$key.pub"
docker run -d --rm --name "$name" -p "127.0.0.1:$port:22" -v "$key.pub:/etc/ssh/tender_authorized_keys:ro" "$image" >/dev/null
trap 'docker rm -f "$name" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
opts=(-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes)
for _ in $(seq 50); do ssh -q "${opts[@]}" -i "$key" -p "$port" root@127.0.0.1 true && break; sleep 0.2; done
out="$here/hosts/${image//\//_}"
mkdir -p "$out"
ssh -q "${opts[@]}" -i "$key" -p "$port" root@127.0.0.1 sh <"$here/../facts.sh" >"$out/script.out"
printf 'h ansible_host=127.0.0.1 ansible_port=%s ansible_user=root ansible_ssh_private_key_file=%s ansible_ssh_common_args="%s"\n' \
	"$port" "$key" "${opts[*]}" >"$out/.inventory"
ANSIBLE_LOAD_CALLBACK_PLUGINS=1 ANSIBLE_STDOUT_CALLBACK=json ansible -i "$out/.inventory" h -m setup 2>/dev/null |
	/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(d["plays"][0]["tasks"][0]["hosts"]["h"]["ansible_facts"], indent=1, sort_keys=True))' >"$out/setup.json"
rm -f "$out/.inventory"
echo "recorded $out"
