#!/usr/bin/python3
"""Records the facts ansible-doc gives about the callback plugins tender
has, into facts.json beside this script.

For each callback, keyed by its fully qualified name, it keeps the
callback's type (stdout, aggregate or notification) and, for each of its
options, only the machine-readable facts: type, default, choices, env (the
variable names), ini (section and key), vars, cli and required, each when
ansible-doc gives it. No description text (nor an option's title) is
copied; tender's own words for each callback are in FQCN.yml beside this
script.

Run by hand (never in CI) with Debian's python3, ansible-core 2.14 and the
ansible collections package installed:
    /usr/bin/python3 provision/report/cbdoc/gen.py
"""

import json
import os
import subprocess

ANSIBLE_DOC = "/usr/bin/ansible-doc"
HERE = os.path.dirname(os.path.abspath(__file__))

CALLBACKS = (
    "ansible.builtin.default",
    "ansible.builtin.minimal",
    "ansible.builtin.oneline",
    "ansible.posix.json",
    "community.general.yaml",
    "ansible.posix.profile_tasks",
    "ansible.posix.timer",
    "ansible.builtin.junit",
)

FACTS = ("type", "default", "choices", "vars", "cli", "required")


def plain(v):
    if isinstance(v, (list, tuple, set)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    return v


def option(spec):
    rec = {k: plain(spec[k]) for k in FACTS if k in spec}
    if "env" in spec:
        rec["env"] = [e["name"] for e in spec["env"] or []]
    if "ini" in spec:
        rec["ini"] = [{"section": i["section"], "key": i["key"]} for i in spec["ini"] or []]
    return rec


def main():
    facts = {}
    for name in CALLBACKS:
        out = subprocess.run([ANSIBLE_DOC, "-t", "callback", "-j", name],
                             check=True, capture_output=True, text=True).stdout
        doc = (json.loads(out).get(name) or {}).get("doc")
        if not doc:
            raise SystemExit("ansible-doc has no documentation for " + name)
        facts[name] = {
            "type": doc.get("type"),
            "options": {o: option(spec) for o, spec in (doc.get("options") or {}).items()},
        }
    path = os.path.join(HERE, "facts.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d callbacks to %s" % (len(facts), path))


if __name__ == "__main__":
    main()
