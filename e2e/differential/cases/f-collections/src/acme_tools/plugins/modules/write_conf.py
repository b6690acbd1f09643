#!/usr/bin/python
# Keeps one key=value line in a file.

DOCUMENTATION = r'''
module: write_conf
short_description: Keep one key=value line in a file
options:
  path: {type: path, required: true, description: The file.}
  key: {type: str, required: true, description: The key.}
  value: {type: str, required: true, description: Its value.}
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ..module_utils.conf import parse, render


def main():
    m = AnsibleModule(argument_spec=dict(path=dict(type='path', required=True), key=dict(type='str', required=True),
                                         value=dict(type='str', required=True)), supports_check_mode=True)
    path = m.params['path']
    values = {}
    if os.path.exists(path):
        with open(path) as f:
            values = parse(f.read())
    changed = values.get(m.params['key']) != m.params['value']
    values[m.params['key']] = m.params['value']
    if changed and not m.check_mode:
        d = os.path.dirname(path)
        if d and not os.path.isdir(d):
            os.makedirs(d, 0o755)
        with open(path, 'w') as f:
            f.write(render(values))
    m.exit_json(changed=changed, path=path, names=sorted(values))


if __name__ == '__main__':
    main()
