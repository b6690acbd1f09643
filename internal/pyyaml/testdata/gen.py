# Records block.json: how the yaml stdout callback (community.general's
# MyDumper on PyYAML) writes each value, for TestBlockText. Run with the
# Debian ansible package installed: python3 gen.py > block.json
import json, sys, yaml
sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible_collections.community.general.plugins.callback.yaml import MyDumper
cases = [
  {"stdout": "a\nb", "rc": 0, "cmd": ["printf", "a\\nb"], "delta": "0:00:00.007128"},
  {"msg": [1, {"a": "x y"}, "multi\nline"]},
  {"s": "  lead\nx"},
  {"s": "\nstarts with break"},
  {"s": "trailing spaces   \nnext\t\n"},
  {"s": "tab\there\nx"},
  {"s": "ab\r\n\tc\n"},
  {"s": "\n\n"},
  {"s": "a\n\n\nb"},
  {"s": "bell\x07\nx"},
  {"s": "uni \u00e9\u2603\nline"},
  {"s": "only\rcr"},
  {"k": {"nested": {"deep": "one\ntwo"}}, "e": [], "d": {}},
  {"list": [["x\ny"], {"a": "p\nq", "b": 1}]},
  {"t": "yes", "n": "1.5", "z": None, "b": True, "f": 1.0},
]
out = []
for c in cases:
    out.append({"in": c, "out": yaml.dump(c, allow_unicode=True, width=1000, Dumper=MyDumper, default_flow_style=False)})
print(json.dumps(out, indent=1, ensure_ascii=False))
