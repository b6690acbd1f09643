#!/usr/bin/python3
"""Records ansible-core's parse_kv/split_args answers for random strings
built from the characters that matter to them (quotes, =, Jinja2
delimiters, backslashes, newlines). Run by hand:
    /usr/bin/python3 gen-random.py 1 1000 > random.json
"""
import json, random, sys
from ansible.parsing.splitter import parse_kv, split_args
random.seed(int(sys.argv[1]))
alpha = ['a', 'b', '=', ' ', ' ', '"', "'", '{{', '}}', '{%', '%}', '{#', '#}', '\\', '\n', 'x=', 'k=v', '\\n', '\\"', 'é', '\t', '{', '}']
out = []
for i in range(int(sys.argv[2])):
    s = ''.join(random.choice(alpha) for _ in range(random.randint(1, 12)))
    c = {'in': s}
    for raw in (False, True):
        try:
            c['ff' if raw else 'kv'] = parse_kv(s, check_raw=raw)
        except Exception as e:
            c['ff' if raw else 'kv'] = {'error': type(e).__name__}
    try:
        c['split'] = split_args(s)
    except Exception as e:
        c['split'] = {'error': type(e).__name__}
    out.append(c)
json.dump(out, sys.stdout)
