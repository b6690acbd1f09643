#!/usr/bin/env python3
"""Records the real systemctl for systemctl_test.go.

Starts two fresh containers of the e2e fleet's tender-e2e/debian-systemd
image (systemd as PID 1, e2e/fleet/run-systemd.sh) with the units that
tasks.yml names, then:

  * runs tasks.yml with ansible-playbook on the first, every result
    registered, and writes the results to ansible.json;
  * runs each task of tasks.yml with tender (built from this tree) on the
    second, one `tender play` per task, with /usr/local/sbin/systemctl (first
    on root's PATH) a recorder that runs the real /usr/bin/systemctl and
    keeps its arguments, stdout, stderr and exit code; writes every call,
    task by task, to transcript.json.

Run by hand from anywhere: python3 tasks/builtin/testdata/systemctl/gen.py
Needs docker, the image (e2e/fleet/build-images.sh), ansible-playbook, go,
ssh-keygen.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '../../../..'))
IMAGE = 'tender-e2e/debian-systemd'

UNIT = """[Unit]
Description=tender test unit %s
[Service]
ExecStart=/usr/bin/sleep infinity
ExecReload=/bin/true
[Install]
WantedBy=multi-user.target
"""

# The host's units, made before either tool runs.
# tender-masked is a vendor unit, as a package installs it: systemctl masks
# only units without a file of the same name in /etc/systemd/system.
SETUP = ''.join(
    "printf '%%s' '%s' >%s/%s.service\n" % (UNIT % u, d, u)
    for u, d in (('tender-web', '/etc/systemd/system'), ('tender-idle', '/etc/systemd/system'),
                 ('tender-masked', '/lib/systemd/system'))
) + """printf '[Unit]\\nDescription=no ExecStart\\n[Service]\\nType=simple\\n' >/etc/systemd/system/tender-broken.service
systemctl daemon-reload
"""

# The recorder: call N's arguments (one per line), stdout, stderr and exit
# code go to /var/tmp/rec/N.{args,out,err,rc}.
RECORDER = r"""#!/bin/sh
d=/var/tmp/rec
mkdir -p "$d"
n=$(($(cat "$d/n" 2>/dev/null || echo 0) + 1))
echo "$n" >"$d/n"
printf '%s\n' "$@" >"$d/$n.args"
/usr/bin/systemctl "$@" >"$d/$n.out" 2>"$d/$n.err"
rc=$?
echo "$rc" >"$d/$n.rc"
cat "$d/$n.out"
cat "$d/$n.err" >&2
exit "$rc"
"""

# Prints the calls recorded so far as JSON and forgets them.
COLLECT = r"""import json, os
d = '/var/tmp/rec'
n = int(open(d + '/n').read()) if os.path.exists(d + '/n') else 0
calls = []
for i in range(1, n + 1):
    r = lambda s: open('%s/%d.%s' % (d, i, s)).read()
    calls.append({'args': r('args').split('\n')[:-1], 'stdout': r('out'), 'stderr': r('err'), 'rc': int(r('rc'))})
    for s in ('args', 'out', 'err', 'rc'):
        os.remove('%s/%d.%s' % (d, i, s))
if n:
    os.remove(d + '/n')
print(json.dumps(calls))
"""


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def start(work):
    cid = sh(os.path.join(REPO, 'e2e/fleet/run-systemd.sh'), work + '/key.pub').strip()
    port = sh('docker', 'port', cid, '22').split('\n')[0].rsplit(':', 1)[1]
    for _ in range(120):
        if subprocess.run(['ssh-keyscan', '-p', port, '127.0.0.1'], capture_output=True).returncode == 0:
            break
        time.sleep(0.5)
    else:
        sys.exit('sshd did not answer in ' + cid)
    for _ in range(60):
        state = subprocess.run(['docker', 'exec', cid, 'systemctl', 'is-system-running'],
                               capture_output=True, text=True).stdout.strip()
        if state in ('running', 'degraded'):
            break
        time.sleep(0.5)
    sh('docker', 'exec', cid, 'sh', '-c', SETUP)
    return cid, port


def inventory(work, name, port):
    path = '%s/%s.hosts' % (work, name)
    with open(path, 'w') as f:
        f.write('target ansible_host=127.0.0.1 ansible_port=%s ansible_user=root '
                'ansible_ssh_private_key_file=%s/key ansible_python_interpreter=/usr/bin/python3\n' % (port, work))
    return path


def run_ansible(work, tasks, port):
    names = []
    listed = []
    for t in tasks:
        t = dict(t, register='r_' + t['name'], ignore_errors=True)
        names.append(t['register'])
        listed.append(t)
    record = {'name': 'record', 'copy': {'dest': '/tmp/out.json',
              'content': "{{ dict(names | zip(names | map('extract', hostvars[inventory_hostname]))) | to_nice_json }}"}}
    play = [{'hosts': 'all', 'gather_facts': False, 'vars': {'names': names}, 'tasks': listed + [record]}]
    with open(work + '/ansible.yml', 'w') as f:
        yaml.safe_dump(play, f, sort_keys=False)
    env = dict(os.environ, ANSIBLE_NOCOLOR='1', ANSIBLE_RETRY_FILES_ENABLED='0', ANSIBLE_HOST_KEY_CHECKING='0')
    p = subprocess.run(['ansible-playbook', '-i', inventory(work, 'a', port), work + '/ansible.yml'],
                       capture_output=True, text=True, env=env, cwd=work)
    if p.returncode != 0:
        sys.exit(p.stdout + p.stderr)


def run_tender(work, tasks, cid, port):
    tender = work + '/tender'
    sh('go', 'build', '-tags', 'urfave_cli_no_docs', '-o', tender, './cmd/tender', cwd=REPO)
    sh('docker', 'exec', '-i', cid, 'sh', '-c', 'cat >/usr/local/sbin/systemctl && chmod 755 /usr/local/sbin/systemctl',
       input=RECORDER)
    inv = inventory(work, 't', port)
    out = {}
    for t in tasks:
        task = {k: v for k, v in t.items() if k != 'check_mode'}
        task['ignore_errors'] = True
        play = [{'hosts': 'all', 'gather_facts': False, 'vars': {'ansible_service_mgr': 'systemd'},
                 'check_mode': bool(t.get('check_mode')), 'tasks': [task]}]
        with open(work + '/t.yml', 'w') as f:
            yaml.safe_dump(play, f, sort_keys=False)
        p = subprocess.run([tender, 'play', '-i', inv, '--host-key-checking', 'accept-new',
                            '--known-hosts', work + '/known_hosts', work + '/t.yml'],
                           capture_output=True, text=True, env=dict(os.environ, NO_COLOR='1'))
        if p.returncode != 0:
            sys.exit('tender on %s: exit %d\n%s%s' % (t['name'], p.returncode, p.stdout, p.stderr))
        out[t['name']] = json.loads(sh('docker', 'exec', cid, 'python3', '-c', COLLECT))
    return out


def main():
    if subprocess.run(['docker', 'image', 'inspect', IMAGE], capture_output=True).returncode != 0:
        sys.exit('no image %s: run e2e/fleet/build-images.sh' % IMAGE)
    with open(HERE + '/tasks.yml') as f:
        tasks = yaml.safe_load(f)
    work = tempfile.mkdtemp()
    ids = []
    try:
        sh('ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'tender-gen', '-f', work + '/key')
        os.chmod(work + '/key.pub', 0o644)
        for _ in range(2):
            ids.append(start(work))
        (ca, pa), (ct, pt) = ids
        run_ansible(work, tasks, pa)
        results = json.loads(sh('docker', 'exec', ca, 'cat', '/tmp/out.json'))
        with open(HERE + '/ansible.json', 'w') as f:
            json.dump({k[2:]: v for k, v in results.items()}, f, indent=1, sort_keys=True)
            f.write('\n')
        calls = run_tender(work, tasks, ct, pt)
        with open(HERE + '/transcript.json', 'w') as f:
            json.dump({'systemctl': sh('docker', 'exec', ct, '/usr/bin/systemctl', '--version').split('\n')[0],
                       'tasks': calls}, f, indent=1, sort_keys=True)
            f.write('\n')
        print('wrote %s/ansible.json and %s/transcript.json' % (HERE, HERE))
    finally:
        for cid, _ in ids:
            subprocess.run(['docker', 'rm', '-f', cid], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
