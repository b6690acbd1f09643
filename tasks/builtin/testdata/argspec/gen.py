#!/usr/bin/python3
"""gen.py records what ansible-core 2.14 does with the cases in cases.yaml.

It runs every case as one ansible.builtin.validate_argument_spec task of a
playbook (localhost, connection local) and records what each task
registered, and it runs the same arguments through ansible-core's
ArgumentSpecValidator to record the validated values (the action does not
return them). Both go to results.json, for argspec_fidelity_test.go.

Run by hand: /usr/bin/python3 tasks/builtin/testdata/argspec/gen.py (the
Python ansible-playbook runs on: the script imports ansible). Needs
Debian's ansible-core 2.14 and python3-yaml.

The run is made reproducible: PYTHONHASHSEED=0 (ansible's boolean error
lists a set), HOME=/tender-argspec-home (a path that need not exist, for
type path's ~), TENDER_ARGSPEC_DIR=/opt/tender-argspec and
TENDER_ARGSPEC_UNSET unset (for its $VAR expansion). The Go test sets the
same environment.
"""
import json
import os
import subprocess
import sys
import tempfile

import yaml

ENV = {'PYTHONHASHSEED': '0', 'HOME': '/tender-argspec-home',
       'TENDER_ARGSPEC_DIR': '/opt/tender-argspec'}

if any(os.environ.get(k) != v for k, v in ENV.items()) or 'TENDER_ARGSPEC_UNSET' in os.environ:
    env = dict(os.environ, **ENV)
    env.pop('TENDER_ARGSPEC_UNSET', None)
    os.execve(sys.executable, [sys.executable] + sys.argv, env)

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator  # noqa: E402
from ansible.parsing.yaml.objects import AnsibleUnicode  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
cases = yaml.safe_load(open(os.path.join(here, 'cases.yaml')))


def task_args(case):
    if 'args' in case:
        return case['args']
    args = {'argument_spec': case['argument_spec']}
    if 'provided_arguments' in case:
        args['provided_arguments'] = case['provided_arguments']
    if 'context' in case:
        args['validate_args_context'] = case['context']
    return args


def run_playbook(work):
    tasks, names = [], []
    for c in cases:
        t = {'name': c['name'], 'validate_argument_spec': task_args(c),
             'register': 'r_' + c['name'], 'ignore_errors': True}
        if 'vars' in c:
            t['vars'] = c['vars']
        tasks.append(t)
        names.append(t['register'])
    tasks.append({'name': 'record', 'copy': {
        'dest': os.path.join(work, 'out.json'),
        'content': "{{ dict(names | zip(names | map('extract', vars))) | to_json }}"}})
    play = [{'hosts': 'localhost', 'connection': 'local', 'gather_facts': False,
             'vars': {'names': names, 'ansible_python_interpreter': sys.executable},
             'tasks': tasks}]
    with open(os.path.join(work, 'play.yml'), 'w') as f:
        yaml.safe_dump(play, f, sort_keys=True)
    env = dict(os.environ, ANSIBLE_NOCOLOR='1', ANSIBLE_RETRY_FILES_ENABLED='0',
               ANSIBLE_LOCAL_TEMP=os.path.join(work, 'ltmp'),
               ANSIBLE_REMOTE_TEMP=os.path.join(work, 'rtmp'))
    p = subprocess.run(['ansible-playbook', '-i', 'localhost,', 'play.yml'], cwd=work, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit(p.stdout)
    return json.load(open(os.path.join(work, 'out.json')))


def unicode(v):
    """The values as the action sees them: strings from YAML are AnsibleUnicode."""
    if isinstance(v, str):
        return AnsibleUnicode(v)
    if isinstance(v, list):
        return [unicode(x) for x in v]
    if isinstance(v, dict):
        return {k: unicode(x) for k, x in v.items()}
    return v


def validate(case):
    """Validated values and errors straight from ArgumentSpecValidator."""
    if 'args' in case:
        return None, None
    spec = unicode(case['argument_spec'])
    params = {k: v for k, v in (case.get('vars') or {}).items() if k in spec}
    params.update(case.get('provided_arguments') or {})
    try:
        res = ArgumentSpecValidator(spec).validate(unicode(params))
    except Exception:
        return None, None
    return res.validated_parameters, res.error_messages


def main():
    with tempfile.TemporaryDirectory() as work:
        registered = run_playbook(work)
    out = {}
    for c in cases:
        r = dict(registered['r_' + c['name']])
        if 'exception' in r:
            r['exception'] = True
        validated, errors = validate(c)
        if errors is not None and errors != r.get('argument_errors', []):
            sys.exit('%s: the validator says %r, the action %r' % (c['name'], errors, r.get('argument_errors')))
        out[c['name']] = {'result': r, 'validated': validated}
    with open(os.path.join(here, 'results.json'), 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write('\n')


main()
