# A role's action plugin: asks the host for its kernel name, then keeps a
# line naming it in a file through the lineinfile module.

from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        kernel = self._low_level_execute_command('uname -s')['stdout'].strip()
        line = '%s=%s' % (self._task.args['key'], kernel)
        result.update(self._execute_module(module_name='ansible.legacy.lineinfile',
                                           module_args={'path': self._task.args['path'], 'line': line,
                                                        'create': True, 'mode': '0644'},
                                           task_vars=task_vars))
        return result
