#!/usr/bin/python3
"""Record the facts ansible-doc gives about each playbook keyword.

Run by hand (never in CI) with /usr/bin/python3 where ansible-core is
installed. It asks `ansible-doc -t keyword -l -j` for the keyword names,
then `ansible-doc -t keyword -j NAME...` for each keyword's entry, and
writes facts.json next to this script: for every keyword, only the
machine-readable facts (applies_to, type, priority, template, alias and any
other key ansible-doc gives). No description text is copied; tender's own
descriptions live in keywords.yml.
"""

import json
import os
import subprocess

ANSIBLE_DOC = "/usr/bin/ansible-doc"


def doc_json(*args):
    out = subprocess.run([ANSIBLE_DOC, "-t", "keyword", "-j", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    names = sorted(doc_json("-l"))
    docs = doc_json(*names)
    missing = set(names) - set(docs)
    if missing:
        raise SystemExit("no entry for: " + ", ".join(sorted(missing)))
    facts = {}
    for name in names:
        facts[name] = {k: v for k, v in docs[name].items() if k != "description"}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "facts.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d keywords to %s" % (len(facts), path))


if __name__ == "__main__":
    main()
