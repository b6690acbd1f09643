#!/bin/sh
# gen.sh records what ansible-core 2.14 returns for the fidelity cases of
# the Debian package-management modules, for their e2e tests
# (apt_repository_e2e_test.go and the others beside it): for each CASE
# (a directory under tasks/builtin/testdata: apt_repository, apt_key,
# dpkg_selections, package_facts, package_facts/rh, apt_upgrade, dnf), it starts a fresh
# host with host.sh, runs CASE/tasks.yml on it with ansible-playbook over
# SSH as root, every task registered as r_<name> and its errors ignored,
# and writes what each registered to CASE/ansible.json. The container is
# removed afterwards.
#
# Run by hand from anywhere: sh tasks/builtin/testdata/apt_repository/gen.sh [CASE...]
# (default: every case). Needs Docker, ansible-playbook (Debian's
# ansible-core 2.14), python3 with PyYAML, ssh-keygen, and the fleet's
# images and repositories (built here with e2e/fleet/build-images.sh,
# aptrepo.sh and rpmrepo.sh when missing or out of date).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
testdata=$(cd "$here/.." && pwd)
fleet=$(cd "$here/../../../../e2e/fleet" && pwd)
[ $# -gt 0 ] || set -- apt_repository apt_key dpkg_selections package_facts package_facts/rh apt_upgrade dnf
images=
for c in "$@"; do images="$images $(cat "$testdata/$c/image")"; done
# shellcheck disable=SC2086
bash "$fleet/build-images.sh" $images >/dev/null
bash "$fleet/aptrepo.sh" >/dev/null
bash "$fleet/rpmrepo.sh" >/dev/null
work=$(mktemp -d)
id=
trap 'rm -rf "$work"; [ -z "$id" ] || docker rm -f "$id" >/dev/null' EXIT
ssh-keygen -q -t ed25519 -N '' -f "$work/key"
chmod 0644 "$work/key.pub"
for c in "$@"; do
	id=$(sh "$here/host.sh" "$c" "$work/key.pub")
	port=$(docker port "$id" 22 | head -n1 | sed 's/.*://')
	i=0
	until ssh-keyscan -p "$port" 127.0.0.1 >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "sshd did not start" >&2; exit 1; }
		sleep 0.2
	done
	rm -f "$work/out.json"
	python3 - "$testdata/$c/tasks.yml" "$work" "$port" <<'PY'
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
    'debhost ansible_host=127.0.0.1 ansible_port=%s ansible_user=root ansible_ssh_private_key_file=%s/key '
    'ansible_python_interpreter=/usr/bin/python3\n' % (port, work))
PY
	(cd "$work" && ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=0 \
		ansible-playbook -i hosts play.yml >"$work/log" 2>&1) || {
		cat "$work/log" >&2
		exit 1
	}
	python3 - "$work/out.json" "$testdata/$c/ansible.json" <<'PY'
import sys, json
src, out = sys.argv[1], sys.argv[2]
data = json.load(open(src))
for v in data.values():
    v.pop('invocation', None)
open(out, 'w').write(json.dumps({k[2:]: v for k, v in data.items()}, indent=1, sort_keys=True) + '\n')
PY
	docker rm -f "$id" >/dev/null
	id=
	echo "wrote $testdata/$c/ansible.json"
done
