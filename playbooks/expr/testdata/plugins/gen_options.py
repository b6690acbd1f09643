#!/usr/bin/python3
"""Record the options of every ansible.builtin filter, test and lookup.

Run by hand with ansible-core 2.14 installed, from any directory:

    ./gen_options.py        # writes options.json

For each name in filter.txt, test.txt and lookup.txt (gen.sh) it asks
ansible-doc -t KIND -j for the plugin's documentation and keeps the facts
only: each option's name, type, elements, default, choices, aliases and
whether it is required, and the order of the positional arguments. No
descriptions. TestPluginOptionsAccepted reads the result.
"""
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
FACTS = ("type", "elements", "default", "choices", "aliases", "required")


def facts(spec):
    out = {}
    for k in FACTS:
        if k not in spec:
            continue
        v = spec[k]
        if k == "choices" and isinstance(v, dict):
            v = list(v)
        out[k] = v
    return out


def main():
    result = {}
    for kind in ("lookup", "filter", "test"):
        with open(os.path.join(HERE, kind + ".txt")) as f:
            names = f.read().split()
        out = subprocess.run(["ansible-doc", "-t", kind, "-j"] + ["ansible.builtin." + n for n in names],
                             capture_output=True, text=True, check=True)
        docs = json.loads(out.stdout)
        plugins = {}
        for n in names:
            entry = docs.get("ansible.builtin." + n) or {}
            doc = entry.get("doc") or {}
            rec = {"options": {o: facts(s or {}) for o, s in sorted((doc.get("options") or {}).items())}}
            pos = doc.get("positional")
            if pos:
                rec["positional"] = [p.strip() for p in pos.split(",")] if isinstance(pos, str) else pos
            plugins[n] = rec
        result[kind] = plugins
    with open(os.path.join(HERE, "options.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
