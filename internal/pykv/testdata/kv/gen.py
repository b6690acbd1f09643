#!/usr/bin/python3
"""Records Ansible's own parse_kv answers for testdata/kv/inputs.txt.

Each line of inputs.txt is one argument string (a literal "\n" stays two
characters; lines ending in a lone backslash or continued by indented lines
are joined with real newlines, see below). Run by hand with ansible-core
installed: python3 gen.py > cases.json
"""
import json, os, sys
from ansible.parsing.splitter import parse_kv, split_args

here = os.path.dirname(os.path.abspath(__file__))
lines = open(os.path.join(here, "inputs.txt")).read().split("\n")
inputs = []
for line in lines:
    if not line:
        continue
    # an indented line, or a line after one ending in " \", continues the previous input
    if inputs and (line.startswith("  ") or inputs[-1].endswith(" \\")):
        inputs[-1] += "\n" + line
    else:
        inputs.append(line)

cases = []
for s in inputs:
    case = {"in": s}
    for raw in (False, True):
        key = "free_form" if raw else "kv"
        try:
            case[key] = parse_kv(s, check_raw=raw)
        except Exception as e:
            case[key] = {"error": type(e).__name__}
    try:
        case["split"] = split_args(s)
    except Exception as e:
        case["split"] = {"error": type(e).__name__}
    cases.append(case)
json.dump(cases, sys.stdout, indent=1, ensure_ascii=False)
print()
