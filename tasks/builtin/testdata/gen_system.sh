#!/bin/sh
# gen_system.sh records what ansible-core (with the ansible.posix and
# community.general collections of Debian's ansible package) returns for
# the tasks in system.yml, for system_e2e_test.go. The tasks need root and
# change the host's users, groups, crontabs, ... so they run over SSH as
# root on a fresh container of the e2e fleet's tender-e2e/debian-sys image
# (e2e/fleet/build-images.sh), removed afterwards. Every result is
# registered and written to ansible_system.json, with the root variable's
# directory replaced by ROOT.
#
# Run by hand from anywhere: sh tasks/builtin/testdata/gen_system.sh
# Needs docker, ansible-playbook, ssh-keygen and python3.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
image=tender-e2e/debian-sys
root=/srv/t
docker image inspect "$image" >/dev/null 2>&1 || {
	echo "no image $image: run e2e/fleet/build-images.sh" >&2
	exit 1
}
work=$(mktemp -d)
id=
trap '[ -z "$id" ] || docker rm -f "$id" >/dev/null; rm -rf "$work"' EXIT
ssh-keygen -q -t ed25519 -N '' -C tender-gen -f "$work/key"
chmod 0644 "$work/key.pub"
id=$(docker run -d --hostname sysbox -p 127.0.0.1::22 -v "$work/key.pub:/etc/ssh/tender_authorized_keys:ro" "$image")
port=$(docker port "$id" 22 | head -n1 | sed 's/.*://')
i=0
until ssh-keyscan -p "$port" 127.0.0.1 >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 60 ] || { echo "sshd did not answer" >&2; exit 1; }
	sleep 0.5
done

python3 - "$here/system.yml" "$work" "$root" <<'PY'
import sys, yaml
tasks = yaml.safe_load(open(sys.argv[1]))
work, root = sys.argv[2], sys.argv[3]
names = []
for t in tasks:
    t['register'] = 'r_' + t['name']
    t['ignore_errors'] = True
    names.append(t['register'])
record = {'name': 'record', 'copy': {'dest': '/tmp/out.json',
          'content': "{{ dict(names | zip(names | map('extract', hostvars[inventory_hostname]))) | to_nice_json }}"}}
play = [{'hosts': 'all', 'gather_facts': False,
         'vars': {'root': root, 'names': names},
         'tasks': tasks + [record]}]
yaml.safe_dump(play, open(work + '/play.yml', 'w'), sort_keys=False)
PY
cat >"$work/hosts" <<INV
target ansible_host=127.0.0.1 ansible_port=$port ansible_user=root ansible_ssh_private_key_file=$work/key ansible_python_interpreter=/usr/bin/python3
INV
(cd "$work" && ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=0 \
	ansible-playbook -i hosts play.yml >"$work/log" 2>&1) || {
	cat "$work/log" >&2
	exit 1
}
docker exec "$id" cat /tmp/out.json >"$work/out.json"
python3 - "$work/out.json" "$here/ansible_system.json" "$root" <<'PY'
import sys, json
src, out, root = sys.argv[1:]
data = json.load(open(src))
text = json.dumps({k[2:]: v for k, v in data.items()}, indent=1, sort_keys=True)
open(out, 'w').write(text.replace(root, 'ROOT') + '\n')
PY
echo "wrote $here/ansible_system.json"
