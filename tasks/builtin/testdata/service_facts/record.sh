#!/bin/sh
# record.sh KIND DIR TASKS OUT records what ansible-core 2.14 returns for
# the tasks in DIR/TASKS on a fresh e2e fleet container, for the fleet
# tests of service_facts, sysvinit, yum_repository, rpm_key and iptables
# (each module's gen.sh calls it). KIND picks the host, started as the
# Go tests start it (initsys_e2e_test.go's initHost):
#
#   sys      tender-e2e/debian-sys: SysV init scripts, sshd as PID 1
#   systemd  tender-e2e/debian-systemd: systemd as PID 1 (run-systemd.sh)
#   openrc   tender-e2e/debian-openrc: openrc-init as PID 1
#   rh       tender-e2e/rh: Debian's dnf and rpm posing as Rocky 9
#   netadmin tender-e2e/debian-sys (which carries iptables) with NET_ADMIN
#   sysadmin tender-e2e/debian-sys with SYS_ADMIN, unconfined by apparmor
#            (mount)
#   node     tender-e2e/debian-node: Debian's nodejs and npm (npm)
#   vm       the fleet's virtual machine (e2e/fleet/run-vm.sh): Debian's
#            kernel with device-mapper, empty disks /dev/vdb and
#            /dev/vdc; DIR is copied to /srv/testdata instead of mounted
#   firewalld tender-e2e/debian-firewalld: the systemd host with
#            firewalld's daemon running, and NET_ADMIN
#
# DIR is mounted read-only at /srv/testdata, and DIR/setup.sh (or
# DIR/$SETUP), when there is one, runs in the container (as root, with
# sh) before the play.
# Every task is registered as r_<name> with ignore_errors; the results
# are written to DIR/OUT, keyed by task name.
#
# Needs docker, ansible-playbook, ssh-keygen and python3.
set -eu
kind=$1 dir=$(cd "$2" && pwd) tasks=$3 out=$4
here=$(cd "$(dirname "$0")/.." && pwd)
fleet=$(cd "$here/../../../e2e/fleet" && pwd)
work=$(mktemp -d)
id=
trap '[ -z "$id" ] || docker rm -f "$id" >/dev/null; rm -rf "$work"' EXIT
ssh-keygen -q -t ed25519 -N '' -C tender-gen -f "$work/key"
chmod 0644 "$work/key.pub"
mounts="-v $dir:/srv/testdata:ro"
case $kind in
sys) image=tender-e2e/debian-sys ;;
systemd) image=tender-e2e/debian-systemd ;;
openrc) image=tender-e2e/debian-openrc ;;
rh) image=tender-e2e/rh ;;
netadmin) image=tender-e2e/debian-sys ;;
sysadmin) image=tender-e2e/debian-sys ;;
vm) image= ;;
firewalld) image=tender-e2e/debian-firewalld ;;
node) image=tender-e2e/debian-node ;;
*) echo "unknown kind $kind" >&2; exit 2 ;;
esac
if [ "$kind" = vm ]; then
	bash "$fleet/build-vm.sh" >/dev/null
	cp "$fleet/../.fleet/vm/key" "$work/key"
	cp "$fleet/../.fleet/vm/key.pub" "$work/key.pub"
	port=$(sh "$fleet/run-vm.sh" "$work/vm")
	trap 'kill "$(cat "$work/vm/pid")"; rm -rf "$work"' EXIT
	vmsh() { ssh -q -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -i "$work/key" -p "$port" root@127.0.0.1 "$@"; }
	tar -C "$dir" -c . | vmsh 'mkdir -p /srv/testdata && tar -C /srv/testdata -x'
	setup=${SETUP:-setup.sh}
	if [ -f "$dir/$setup" ]; then
		vmsh sh -s <"$dir/$setup" >"$work/setup.log" 2>&1 || { cat "$work/setup.log" >&2; exit 1; }
	fi
else
bash "$fleet/build-images.sh" "$image" >/dev/null
case $kind in
systemd) id=$(sh "$fleet/run-systemd.sh" "$work/key.pub" --hostname "$kind" $mounts) ;;
firewalld) id=$(TENDER_SYSTEMD_IMAGE=$image sh "$fleet/run-systemd.sh" "$work/key.pub" --cap-add NET_ADMIN \
	--hostname "$kind" $mounts) ;;
openrc) id=$(docker run -d --tmpfs /run -e container=docker --hostname "$kind" -p 127.0.0.1::22 \
	-v "$work/key.pub:/etc/ssh/tender_authorized_keys:ro" $mounts "$image") ;;
netadmin) id=$(docker run -d --cap-add NET_ADMIN --hostname "$kind" -p 127.0.0.1::22 \
	-v "$work/key.pub:/etc/ssh/tender_authorized_keys:ro" $mounts "$image") ;;
sysadmin) id=$(docker run -d --cap-add SYS_ADMIN --security-opt apparmor=unconfined --hostname "$kind" \
	-p 127.0.0.1::22 -v "$work/key.pub:/etc/ssh/tender_authorized_keys:ro" $mounts "$image") ;;
*) id=$(docker run -d --hostname "$kind" -p 127.0.0.1::22 \
	-v "$work/key.pub:/etc/ssh/tender_authorized_keys:ro" $mounts "$image") ;;
esac
port=$(docker port "$id" 22 | head -n1 | sed 's/.*://')
i=0
until ssh-keyscan -p "$port" 127.0.0.1 >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 120 ] || { echo "sshd did not answer" >&2; exit 1; }
	sleep 0.5
done
# the host has booted: as initHost waits
docker exec -i "$id" sh -s <"$here/service_facts/settle.sh"
setup=${SETUP:-setup.sh}
if [ -f "$dir/$setup" ]; then
	docker exec -i "$id" sh -s <"$dir/$setup" >"$work/setup.log" 2>&1 || {
		cat "$work/setup.log" >&2
		exit 1
	}
fi
fi

python3 - "$dir/$tasks" "$work" "$port" <<'PY'
import sys, yaml
tasks = yaml.safe_load(open(sys.argv[1]))
work, port = sys.argv[2], sys.argv[3]
names = []
for t in tasks:
    t['register'] = 'r_' + t['name']
    t['ignore_errors'] = True
    names.append(t['register'])
record = {'name': 'record', 'delegate_to': 'localhost', 'copy': {'dest': work + '/out.json',
          'content': "{{ dict(names | zip(names | map('extract', hostvars[inventory_hostname]))) | to_nice_json }}"}}
play = [{'hosts': 'all', 'gather_facts': False, 'vars': {'names': names}, 'tasks': tasks + [record]}]
yaml.safe_dump(play, open(work + '/play.yml', 'w'), sort_keys=False)
open(work + '/hosts', 'w').write(
    'host ansible_host=127.0.0.1 ansible_port=%s ansible_user=root ansible_ssh_private_key_file=%s/key '
    'ansible_python_interpreter=/usr/bin/python3\n' % (port, work))
PY
(cd "$work" && ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=0 \
	ansible-playbook -i hosts play.yml >"$work/log" 2>&1) || {
	cat "$work/log" >&2
	exit 1
}
python3 - "$work/out.json" "$dir/$out" <<'PY'
import sys, json
src, out = sys.argv[1:]
data = json.load(open(src))
text = json.dumps({k[2:]: v for k, v in data.items()}, indent=1, sort_keys=True)
open(out, 'w').write(text + '\n')
PY
echo "wrote $dir/$out"
