#!/usr/bin/python3
"""Write routing.txt, ansible.builtin's plugin routing, from the installed ansible-core.

Run by hand (not in CI) from this directory with Debian's ansible-core 2.14:

    ./gen.py

ansible-core sends the short names of the modules and plugins that left it
for collections (ufw, mysql_db, json_query...) to their collections through
its config/ansible_builtin_runtime.yml, and names its action groups there
(group/aws for module_defaults: the groups of the cloud collections). Only
those facts are carried: for each plugin type tender resolves, each name
and where it goes (or that it was removed), and each group's members;
descriptions and deprecation texts are not.
"""
import os

import ansible
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ["modules", "action", "filter", "test", "lookup", "callback", "connection", "become"]


def main():
    src = os.path.join(os.path.dirname(ansible.__file__), "config", "ansible_builtin_runtime.yml")
    with open(src) as f:
        routing = yaml.safe_load(f)["plugin_routing"]
    from ansible.release import __version__
    with open(src) as f:
        groups = yaml.safe_load(f).get("action_groups", {})
    lines = ["# ansible.builtin's plugin routing, from ansible-core %s (gen.py): KIND NAME TARGET," % __version__,
             "# or KIND NAME - for a removed one; and its action groups: group NAME MEMBER...,",
             "# +GROUP for a group it extends."]
    for kind in KINDS:
        for name, entry in sorted(routing.get(kind, {}).items()):
            if "tombstone" in entry:
                lines.append("%s %s -" % (kind, name))
            elif "redirect" in entry:
                lines.append("%s %s %s" % (kind, name, entry["redirect"]))
    for name, members in sorted(groups.items()):
        words = []
        for m in members:
            if isinstance(m, dict):
                ext = m.get("metadata", {}).get("extend_group", [])
                words.extend("+" + g for g in ([ext] if isinstance(ext, str) else ext))
            else:
                words.append(m)
        lines.append("group %s %s" % (name, " ".join(words)))
    with open(os.path.join(HERE, "routing.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
