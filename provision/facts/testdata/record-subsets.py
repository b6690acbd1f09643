#!/usr/bin/python3
"""Records which facts ansible-core's setup module returns, by name, for a
table of gather_subset and filter values, from one host: the answers
subset_test.go checks facts.Subset and facts.Filter against.

Every case is one setup task of one ansible-playbook run (ignore_errors,
the json callback); for each, the names under ansible_facts, or the
failure's message. The table has every subset name Ansible accepts (read
from Ansible's own collectors), each alone after "!all,!min", and the
cases of Ansible's rules: min, negation, dependencies, explicit names
winning over exclusions, unknown names, comma strings and lists, and
filter patterns with and without the ansible_ prefix.

Run by record-host.sh, with the host it records:
    record-subsets.py INVENTORY HOST > subsets.json
"""
import json
import os
import subprocess
import sys
import tempfile

from ansible.module_utils.facts import collector, default_collectors

# Every gather_subset name Ansible accepts on Linux.
_classes = collector.find_collectors_for_platform(
    default_collectors.collectors, [{"system": "Linux"}, {"system": "Generic"}])
NAMES = sorted(collector.build_fact_id_to_collector_map(_classes)[0])

SUBSETS = [
    None, "all", "min", "!all", "!min", "!all,!min", "all,!min", "min,!min",
    "!hardware", "all,!hardware", "!hardware,!network,!virtual,!ohai,!facter",
    "all,!hardware,!network,!virtual,!ohai,!facter",
    "hardware", "network", "virtual", "ohai", "facter",
    "all,!devices", "all,!distribution", "all,!platform", "all,!os_family", "all,!user",
    "!all,user,!user", "!all,!min,user,!user", "!user,user", "!all,all", "all,!all",
    "!all,!min,mounts", "!all,!min,interfaces", "!all,!min,service_mgr", "!all,!min,system",
    "!bogus", "!all,!min,!bogus", "!", "bogus", "", "ALL", "all, !hardware", "all,,network",
    [], ["all"], ["!all", "network"], ["!all", "!min", "dns", "local"], ["!all,network"],
    ["!all", " network"],
] + ["!all,!min," + n for n in NAMES]

FILTERS = [
    "ansible_os*", "os*", "*", "", [], ["ansible_dist*", "kernel"], "ansible_dist*,kernel",
    "os_family, kernel", "gather_subset", "module_setup", "ansible_*", "facter*", "ohai*",
    "[a-d]*", "ansible_[a-d]*", "[!a]*", "*_mb", "?", "ansible_eth?", "eth0", "dummy0*",
    "ansible_[z-a]*", "ansible_[!z-a]*", "ansible_[]a]*", "ansible_[a-c-e]*", "ansible_[", "ANSIBLE_*",
    "ansible_python", "python*", "ansible_local", "ansible_lo", "[gm]*",
]

COMBOS = [("!all", "ansible_*"), ("network", "ansible_d*"), ("!all,!min", "*"),
          ("!all,!min", "gather_subset"), ("!all,!min,local", "ansible_l*")]


def cases():
    for s in SUBSETS:
        yield {"gather_subset": s}
    for f in FILTERS:
        yield {"filter": f}
    for s, f in COMBOS:
        yield {"gather_subset": s, "filter": f}


def main():
    inventory, host = sys.argv[1], sys.argv[2]
    table = list(cases())
    tasks = []
    for c in table:
        args = {k: v for k, v in c.items() if v is not None}
        tasks.append({"setup": args, "ignore_errors": True})
    play = [{"hosts": host, "gather_facts": False, "tasks": tasks}]
    with tempfile.NamedTemporaryFile("w", suffix=".yml") as pb:
        json.dump(play, pb)  # JSON is YAML
        pb.flush()
        env = dict(os.environ, ANSIBLE_LOAD_CALLBACK_PLUGINS="1", ANSIBLE_STDOUT_CALLBACK="json")
        out = subprocess.run(["ansible-playbook", "-i", inventory, pb.name], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False).stdout
    results = json.loads(out)["plays"][0]["tasks"]
    if len(results) != len(table):
        sys.exit("%d results for %d cases" % (len(results), len(table)))
    recorded = []
    for c, r in zip(table, results):
        res = r["hosts"][host]
        rec = {k: v for k, v in c.items() if v is not None}
        if res.get("failed"):
            rec["msg"] = res.get("msg", "")
        else:
            rec["names"] = sorted(res.get("ansible_facts", {}))
            rec["gather_subset_fact"] = res.get("ansible_facts", {}).get("gather_subset")
        recorded.append(rec)
    json.dump(recorded, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
