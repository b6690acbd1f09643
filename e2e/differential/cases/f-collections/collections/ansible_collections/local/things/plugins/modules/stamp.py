#!/usr/bin/python
# Writes a file with fixed text once.

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.local.things.plugins.module_utils.text import STAMP


def main():
    m = AnsibleModule(argument_spec=dict(path=dict(type='path', required=True)), supports_check_mode=True)
    path = m.params['path']
    written = False
    if not os.path.exists(path):
        written = True
        if not m.check_mode:
            with open(path, 'w') as f:
                f.write(STAMP)
    m.exit_json(changed=written, written=written)


if __name__ == '__main__':
    main()
