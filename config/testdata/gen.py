#!/usr/bin/python3
"""Record what ansible-core answers for scenarios.yaml and lookups.yaml.

Run by hand (not in CI) from this directory with Debian's ansible-core 2.14:

    ./gen.py            # writes dump/<scenario>.json and lookups.json

Each scenario runs `ansible-config dump -t all --format json` in a fresh
directory (home/ is HOME, cwd/ the working directory), with the scenario's
files and environment and nothing else. The record holds, per base setting
and per plugin option, the value and its origin; CONFIG_FILE; the warnings
and the error ansible-config printed (the warnings without whitespace:
Display wraps them at the terminal's width). The scenario's directory is written
as @ROOT@, the per-run temporary directory of DEFAULT_LOCAL_TMP as
@LOCAL_TMP@.

For lookups.yaml it runs one play on the host of lookups.yaml (a debug
task per case, ignoring errors, the json callback) with ansible-playbook,
and records per case the type and the JSON of the value, or the error;
and the warnings the run printed.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def record(scn):
    root, env = make_root(scn)
    try:
        out = subprocess.run(["ansible-config", "dump", "-t", "all", "--format", "json"],
                             cwd=os.path.join(root, "cwd"), env=env, capture_output=True, text=True)
        warnings, errors = [], []
        for line in out.stderr.splitlines():
            if line.startswith("[WARNING]: "):
                warnings.append(line[len("[WARNING]: "):])
            elif line.startswith("ERROR: ") or errors:
                errors.append(re.sub(r"^ERROR: ", "", line))
            elif warnings:
                warnings[-1] += line
        # Display wraps warnings at the terminal's width: they are recorded
        # without whitespace.
        warnings = [re.sub(r"\s", "", w) for w in warnings]
        rec = {"rc": out.returncode, "warnings": warnings, "error": "\n".join(errors) or None}
        if out.returncode == 0:
            base, plugins = {}, {}
            for e in json.loads(out.stdout):
                if "name" in e:
                    base[e["name"]] = [e["value"], e["origin"]]
                    continue
                for key, entries in e.items():
                    ptype = key[:-len("_PLUGINS")].lower()
                    for p in entries:
                        for pname, opts in p.items():
                            plugins.setdefault(ptype, {})[pname] = {o["name"]: [o["value"], o["origin"]] for o in opts}
            rec["base"], rec["plugins"] = base, plugins
        text = json.dumps(rec, indent=1, sort_keys=True, ensure_ascii=False).replace(root, "@ROOT@")
        text = re.sub(r'@ROOT@[^"]*/ansible-local-[^"]*', "@LOCAL_TMP@", text)
        with open(os.path.join(HERE, "dump", scn["name"] + ".json"), "w") as f:
            f.write(text + "\n")
        print("recorded", scn["name"])
    finally:
        shutil.rmtree(root)


SEP = "\x1f"
TYPES = {"AnsibleUnicode": "str", "AnsibleUnsafeText": "str", "NativeJinjaUnsafeText": "str",
         "NativeJinjaText": "str", "tuple": "list", "AnsibleSequence": "list", "AnsibleMapping": "dict"}


def make_root(spec):
    root = tempfile.mkdtemp(prefix="tender-config-")
    for d in ("home", "cwd", "other"):
        os.mkdir(os.path.join(root, d))
    for path, text in (spec.get("files") or {}).items():
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    for d in spec.get("writable") or []:
        os.chmod(os.path.join(root, d), 0o777)
    env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": os.path.join(root, "home"),
           "COLUMNS": "100000"}
    for k, v in (spec.get("env") or {}).items():
        env[k] = v.replace("@ROOT@", root)
    return root, env


def record_lookups():
    with open(os.path.join(HERE, "lookups.yaml")) as f:
        spec = yaml.safe_load(f)
    root, env = make_root(spec)
    try:
        tasks = []
        for i, case in enumerate(spec["cases"]):
            if isinstance(case, str):
                case = {"e": case}
            e = case["e"]
            task = {"name": "case %d" % i, "ignore_errors": True,
                    "debug": {"msg": "{{ (%s) | type_debug }}%s{{ (%s) | to_json }}" % (e, SEP, e)}}
            if case.get("vars"):
                task["vars"] = case["vars"]
            tasks.append(task)
        cwd = os.path.join(root, "cwd")
        with open(os.path.join(cwd, "pb.yml"), "w") as f:
            yaml.safe_dump([{"hosts": "localhost", "gather_facts": False, "tasks": tasks}], f, width=10000)
        with open(os.path.join(cwd, "hosts"), "w") as f:
            f.write("localhost " + " ".join("%s=%s" % kv for kv in spec["hostvars"].items()) + "\n")
        out = subprocess.run(["ansible-playbook", "-i", "hosts", "pb.yml"], cwd=cwd, env=env,
                             capture_output=True, text=True)
        res = json.loads(out.stdout)
        results = []
        for i, t in enumerate(res["plays"][0]["tasks"]):
            assert t["task"]["name"] == "case %d" % i
            h = t["hosts"]["localhost"]
            case = spec["cases"][i]
            rec = {"id": i, "e": case if isinstance(case, str) else case["e"]}
            if h.get("failed"):
                rec["error"] = h.get("msg", "")
            else:
                typ, _, js = h["msg"].partition(SEP)
                rec["type"], rec["json"] = TYPES.get(typ, typ), js
            results.append(rec)
        warnings = [l[len("[WARNING]: "):] for l in out.stderr.splitlines() if l.startswith("[WARNING]: ")]
        text = json.dumps({"results": results, "warnings": warnings}, indent=1, ensure_ascii=False)
        with open(os.path.join(HERE, "lookups.json"), "w") as f:
            f.write(text.replace(root, "@ROOT@") + "\n")
        print("recorded %d lookup cases" % len(results))
    finally:
        shutil.rmtree(root)


def main():
    if os.path.exists("/etc/ansible/ansible.cfg"):
        sys.exit("/etc/ansible/ansible.cfg exists: every scenario would read it; record elsewhere")
    with open(os.path.join(HERE, "scenarios.yaml")) as f:
        scenarios = yaml.safe_load(f)["scenarios"]
    os.makedirs(os.path.join(HERE, "dump"), exist_ok=True)
    for scn in scenarios:
        record(scn)
    record_lookups()


if __name__ == "__main__":
    main()
