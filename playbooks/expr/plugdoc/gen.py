#!/usr/bin/python3
"""Records the facts of ansible-core 2.14's documented filter, test and
lookup plugins (ansible.builtin) into facts.json beside this script: each
plugin's options with their type, default, choices, aliases, elements and
whether required, and the names of its documented return values. No
description is copied. tender's plugin documentation
(playbooks/expr/plugdoc/KIND/NAME.yml) takes these facts and adds its
own words; TestPluginDocs holds the words to the facts.

Rerun by hand with Debian's python3 and ansible-core:
    /usr/bin/python3 playbooks/expr/plugdoc/gen.py
"""
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
FACTS = ("type", "default", "choices", "aliases", "elements", "required")


def names(kind):
    out = subprocess.run(["ansible-doc", "-t", kind, "-l"], capture_output=True, text=True).stdout
    return sorted(line.split()[0][len("ansible.builtin."):] for line in out.splitlines()
                  if line.startswith("ansible.builtin."))


def plain(v):
    if isinstance(v, (list, tuple, set)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    return v


def main():
    out = {}
    for kind in ("filter", "test", "lookup"):
        out[kind] = {}
        for name in names(kind):
            raw = subprocess.run(["ansible-doc", "-t", kind, "-j", "ansible.builtin." + name],
                                 capture_output=True, text=True).stdout
            d = (json.loads(raw or "{}").get("ansible.builtin." + name) or {})
            doc = d.get("doc") or {}
            opts = {}
            for o, spec in (doc.get("options") or {}).items():
                opts[o] = {k: plain(spec[k]) for k in FACTS if spec.get(k) is not None}
            rec = {"options": opts, "returns": sorted(d.get("return") or {})}
            if doc.get("positional"):
                rec["positional"] = plain(doc["positional"])
            out[kind][name] = rec
    with open(os.path.join(HERE, "facts.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
