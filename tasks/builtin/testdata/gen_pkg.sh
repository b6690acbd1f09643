#!/bin/sh
# gen_pkg.sh records what ansible-core returns for the tasks in
# pkg/tasks.yml (apt, service, ...), for pkg_e2e_test.go. It starts a
# fresh e2e fleet host (tender-e2e/debian-py with the fleet's local apt
# repository, as e2e/fleet/docker-compose.yml runs it), runs the tasks on
# it with ansible-playbook over SSH as root, registers every result and
# writes them to pkg/ansible.json. The container is removed afterwards.
#
# Run by hand from anywhere: sh tasks/builtin/testdata/gen_pkg.sh
# Needs Docker, ansible-playbook (Debian's ansible-core 2.14), python3,
# ssh-keygen, and the fleet's images and repository (it builds them with
# e2e/fleet/build-images.sh and e2e/fleet/aptrepo.sh when missing).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fleet=$(cd "$here/../../../e2e/fleet" && pwd)
bash "$fleet/build-images.sh" >/dev/null
bash "$fleet/aptrepo.sh" >/dev/null
work=$(mktemp -d)
id=
trap 'rm -rf "$work"; [ -z "$id" ] || docker rm -f "$id" >/dev/null' EXIT
ssh-keygen -q -t ed25519 -N '' -f "$work/key"
chmod 0644 "$work/key.pub"
id=$(docker run -d --init -p 127.0.0.1::22 \
	-v "$work/key.pub:/etc/ssh/tender_authorized_keys:ro" \
	-v "$fleet/apt-sources.list:/etc/apt/sources.list:ro" \
	-v "$(cd "$fleet/../.fleet/apt" && pwd):/srv/tender-apt:ro" tender-e2e/debian-py)
port=$(docker port "$id" 22 | head -n1 | sed 's/.*://')
i=0
until ssh-keyscan -p "$port" 127.0.0.1 >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -lt 100 ] || { echo "sshd did not start" >&2; exit 1; }
	sleep 0.2
done
cp -R "$here/files" "$work/files"
python3 - "$here/pkg/tasks.yml" "$work" "$port" <<'PY'
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
python3 - "$work" "$here/pkg/ansible.json" <<'PY'
import sys, json
work, out = sys.argv[1], sys.argv[2]
data = json.load(open(work + '/out.json'))
text = json.dumps({k[2:]: v for k, v in data.items()}, indent=1, sort_keys=True)
text = text.replace(work + '/files', 'FILES').replace(work, 'WORK')
open(out, 'w').write(text + '\n')
PY
echo "wrote $here/pkg/ansible.json"
