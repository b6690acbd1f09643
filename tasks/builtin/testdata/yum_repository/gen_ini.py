#!/usr/bin/env python3
"""gen_ini.py records how Python's configparser.RawConfigParser (which
ansible-core's yum_repository reads and writes repo files with) reads
the repo files in ini_inputs.json: for each, the file write() makes, the
sorted dump yum_repository compares and shows as its diff, or the error.
TestRepoINI (yum_repository_test.go) compares tender's parser with it.

Run by hand: python3 tasks/builtin/testdata/yum_repository/gen_ini.py
"""
import configparser
import io
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
cases = json.load(open(os.path.join(here, 'ini_inputs.json')))
out = {}
for name, text in sorted(cases.items()):
    p = configparser.RawConfigParser()
    try:
        p.read_string(text, 'f.repo')
    except configparser.Error as e:
        out[name] = {'error': type(e).__name__}
        continue
    w = io.StringIO()
    p.write(w)
    dump = ''
    for s in sorted(p.sections()):
        dump += '[%s]\n' % s
        for k, v in sorted(p.items(s)):
            dump += '%s = %s\n' % (k, v)
        dump += '\n'
    out[name] = {'write': w.getvalue(), 'dump': dump}
with open(os.path.join(here, 'ini_expected.json'), 'w') as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write('\n')
