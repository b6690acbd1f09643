#!/usr/bin/env bash
# make demo: tender's main job on a real fleet. Builds the two fleet images
# it uses (cached), starts three sshd hosts with docker-compose on 127.0.0.1, runs
# playbooks/examples/site.yml with tender play, then runs it again to show
# that nothing changes the second time; then deploys the example agent
# bundle (agents/examples/hello) with tender agent deploy, twice: the
# second time every host is up to date and costs one round trip. The
# fleet is removed at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
state=e2e/.fleet/demo
mkdir -p "$state"
bash e2e/fleet/build-images.sh tender-e2e/debian-py tender-e2e/debian
bash e2e/fleet/aptrepo.sh
rm -f "$state/id_ed25519" "$state/id_ed25519.pub" "$state/known_hosts"
ssh-keygen -q -t ed25519 -N '' -C tender-demo -f "$state/id_ed25519"
cp "$state/id_ed25519.pub" "$state/authorized_keys"
export TENDER_E2E_KEYS="$root/$state/authorized_keys"
compose=(docker-compose -p tender-demo -f e2e/fleet/docker-compose.yml)
trap '"${compose[@]}" down -v --remove-orphans >/dev/null 2>&1' EXIT
"${compose[@]}" up -d --scale py=2 --scale nopy=1 >/dev/null 2>&1

{
	echo "[demo]"
	for spec in py:1 py:2 nopy:1; do
		port=$("${compose[@]}" port --index "${spec#*:}" "${spec%:*}" 22 | sed 's/.*://')
		echo "${spec%:*}${spec#*:} ansible_host=127.0.0.1 ansible_port=$port"
		# Wait for sshd's banner, not just an open port (docker's proxy
		# accepts connections before sshd is up).
		for _ in $(seq 150); do
			banner=$( (exec 3<>"/dev/tcp/127.0.0.1/$port" && IFS= read -r -t 2 l <&3 && printf %s "$l") 2>/dev/null) || true
			case $banner in SSH-*) break ;; esac
			sleep 0.2
		done
	done
	echo
	echo "[demo:vars]"
	echo "ansible_user=deploy"
	echo "ansible_ssh_private_key_file=$root/$state/id_ed25519"
} >"$state/hosts"
sleep 1

run() {
	echo
	echo "\$ tender play -i $state/hosts playbooks/examples/site.yml  # $1"
	bin/tender play -i "$state/hosts" playbooks/examples/site.yml \
		--host-key-checking accept-new --known-hosts "$state/known_hosts"
}
time run "first run: configures the hosts"
time run "second run: nothing to change"

agent() {
	echo
	echo "\$ tender agent deploy -i $state/hosts --bundle agents/examples/hello  # $1"
	bin/tender agent deploy -i "$state/hosts" --bundle agents/examples/hello --state "$state/ledger.db" \
		-e ansible_become=true --host-key-checking accept-new --known-hosts "$state/known_hosts"
}
rm -f "$state/ledger.db"
time agent "first deploy: every host is new"
time agent "second deploy: every host up to date, one round trip each"
