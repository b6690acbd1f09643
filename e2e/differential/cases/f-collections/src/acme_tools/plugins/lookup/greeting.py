# acme.tools' greeting lookup.

DOCUMENTATION = r'''
name: greeting
short_description: Greets the terms
description: Returns a greeting for each term.
options:
  _terms:
    description: The names to greet.
    required: true
  word:
    description: The greeting.
    default: hello
'''

from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        self.set_options(var_options=variables, direct=kwargs)
        return ['%s %s' % (self.get_option('word'), t) for t in terms]
