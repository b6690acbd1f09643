#!/usr/bin/python3
"""Records how ansible-core itself parses each golden playbook's tasks.

For every case directory, loads site.yml with Ansible's own Playbook loader
and writes ansible-tasks.json: for each task in --list-tasks order, its
name, action (as written), args, when, loop, delegate_to, notify and
register; and ansible-handlers.json: each play's handlers in Ansible's
order (role handlers, then the play's), with listen. The Go test compares tender's parse with it. Run by hand:
    /usr/bin/python3 gen-args.py
A case holding a file TASKLIST is a bare list of tasks; it is loaded
through a wrapper play that imports it.
"""
import json, os

from ansible import context
from ansible.module_utils.common.collections import ImmutableDict
from ansible.parsing.dataloader import DataLoader
from ansible.inventory.manager import InventoryManager
from ansible.vars.manager import VariableManager
from ansible.playbook import Playbook
from ansible.playbook.block import Block
from ansible.plugins.loader import _configure_collection_loader

context.CLIARGS = ImmutableDict(tags=['all'], skip_tags=[], check=False, diff=False)
_configure_collection_loader()


def plain(v):
    """Ansible's YAML objects as plain JSON values."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (bool, int, float)) or v is None:
        return v
    return str(v)


def tasks_of(block, out):
    for t in block.block:
        if isinstance(t, Block):
            tasks_of(t, out)
            continue
        if t.action in ('meta',) and t.implicit:
            continue
        out.append({
            'name': t.get_name(),
            'action': t.action,
            'args': plain(t.args),
            'when': plain(t.when),
            'loop': plain(t.loop) if t.loop is not None else None,
            'loop_with': t.loop_with,
            'delegate_to': t.delegate_to,
            'notify': plain(t.notify),
            'register': t.register,
            'become': t.become,
            'become_user': t.become_user,
            'ignore_errors': t.ignore_errors,
            'no_log': t.no_log,
            'run_once': t.run_once,
            'check_mode': plain(t.check_mode),
            'environment': plain(t.environment),
            'tags': sorted(set(plain(t.tags))),
        })


def handler_objs(play):
    """The handler objects, in the order tasks_of lists them."""
    objs = []

    def walk(b):
        for t in b.block:
            if isinstance(t, Block):
                walk(t)
            else:
                objs.append(t)
    for b in play.compile_roles_handlers() + play.handlers:
        walk(b)
    return objs


here = os.path.dirname(os.path.abspath(__file__))
for case in sorted(os.listdir(here)):
    d = os.path.join(here, case)
    if not os.path.isfile(os.path.join(d, 'site.yml')):
        continue
    os.chdir(d)
    pbfile = 'site.yml'
    if os.path.exists('TASKLIST'):
        pbfile = '.wrapper.yml'
        with open(pbfile, 'w') as f:
            f.write('- hosts: all\n  tasks:\n    - import_tasks: site.yml\n')
    loader = DataLoader()
    inv = InventoryManager(loader=loader, sources='localhost,')
    vm = VariableManager(loader=loader, inventory=inv)
    pb = Playbook.load(os.path.join(d, pbfile), variable_manager=vm, loader=loader)
    out, handlers = [], []
    for play in pb.get_plays():
        for block in play.compile():
            tasks_of(block, out)
        hs = []
        for block in play.compile_roles_handlers() + play.handlers:
            tasks_of(block, hs)
        handlers.append([{'name': h['name'], 'action': h['action'], 'args': h['args'],
                          'listen': plain(h_obj.listen)} for h, h_obj in zip(hs, handler_objs(play))])
    if pbfile != 'site.yml':
        os.remove(pbfile)
    with open(os.path.join(d, 'ansible-tasks.json'), 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write('\n')
    with open(os.path.join(d, 'ansible-handlers.json'), 'w') as f:
        json.dump(handlers, f, indent=1, sort_keys=True)
        f.write('\n')
    print(case, len(out), 'tasks')
