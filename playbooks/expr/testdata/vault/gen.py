#!/usr/bin/env python3
"""Records what ansible-core answers for the vault cases in cases.yaml
(the vault and unvault filters, the unvault, file and template lookups of a
vault-encrypted file, the vault_encrypted test) into expected.json.
Run by hand from this directory: python3 gen.py. Needs ansible-playbook."""
import json
import os
import subprocess

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    with open(os.path.join(HERE, "cases.yaml")) as f:
        cases = yaml.safe_load(f)
    tasks = [{"name": "case %d" % i, "debug": {"msg": "{{ %s }}" % c}, "ignore_errors": True}
             for i, c in enumerate(cases)]
    pb = os.path.join(HERE, "gen_playbook.yml")
    with open(pb, "w") as f:
        yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False,
                         "tasks": tasks}], f, sort_keys=False, width=10000)
    env = dict(os.environ, ANSIBLE_STDOUT_CALLBACK="json", ANSIBLE_LOCALHOST_WARNING="false",
               ANSIBLE_NOCOLOR="1")
    out = subprocess.run(["ansible-playbook", "-i", "localhost,", "--vault-password-file", "pw.txt", pb],
                         cwd=HERE, env=env, capture_output=True, text=True)
    os.remove(pb)
    res = json.loads(out.stdout)
    results = []
    for c, t in zip(cases, res["plays"][0]["tasks"]):
        r = t["hosts"]["localhost"]
        if r.get("failed"):
            results.append({"expr": c, "error": r["msg"]})
        else:
            results.append({"expr": c, "value": r["msg"]})
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
        f.write("\n")


main()
