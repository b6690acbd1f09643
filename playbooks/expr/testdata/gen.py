#!/usr/bin/python3
"""Record what real ansible-core answers for every case of cases.yaml.

Run by hand (not in CI) from this directory after changing cases.yaml:

    ./gen.py            # writes expected.json

or after changing another case table, naming it and where to write:

    ./gen.py plugins/optcases.yaml plugins/optcases.json

A table with "jinja2_native: true" is run with ANSIBLE_JINJA2_NATIVE=1.

It writes one local playbook (gen_playbook.yml, not committed) with one
debug task per case and the inventory of cases.yaml (gen_inventory.ini,
not committed: the play runs on localhost only, the other hosts are there
for groups and host patterns), runs it with ansible-playbook and the json
stdout callback, and records per case either the value or the error:

  expression cases:  {"type": <python type>, "json": <to_json text>}
  template cases:    {"value": <the rendered value>}
  when: cases:       {"value": true if the task ran, false if it was skipped}
  failures:          {"error": <ansible's message>}

The playbook sits in this directory, so relative lookups (file,
first_found, fileglob, lines, password) resolve against it and files/.

The reference has passlib installed. Without it ansible-core's
password_hash answers differently (crypt's defaults), so on a machine
without passlib the cases using password_hash keep the answers already in
expected.json, and a warning says so.
"""
import importlib.util
import json
import os
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SEP = "\x1f"

STR_TYPES = {"AnsibleUnicode", "AnsibleUnsafeText", "NativeJinjaUnsafeText",
             "NativeJinjaText", "str", "AnsibleUnsafeBytes"}
TYPES = {"AnsibleSequence": "list", "tuple": "list", "AnsibleMapping": "dict"}


class Unsafe(str):
    """A string tagged !unsafe in cases.yaml, written back with the tag."""


yaml.SafeLoader.add_constructor("!unsafe", lambda loader, node: Unsafe(loader.construct_scalar(node)))
yaml.SafeDumper.add_representer(Unsafe, lambda dumper, v: dumper.represent_scalar("!unsafe", str(v)))


def norm_type(t):
    if t in STR_TYPES:
        return "str"
    return TYPES.get(t, t)


def main():
    cases_path, out_path = "cases.yaml", "expected.json"
    if len(sys.argv) == 3:
        cases_path, out_path = sys.argv[1], sys.argv[2]
    with open(os.path.join(HERE, cases_path)) as f:
        table = yaml.safe_load(f)
    tasks = []
    for i, case in enumerate(table["cases"]):
        if isinstance(case, str):
            case = {"e": case}
        if "e" in case:
            e = case["e"]
            msg = "{{ (%s) | type_debug }}%s{{ (%s) | to_json }}" % (e, SEP, e)
        elif "w" in case:
            msg = "ran"
        else:
            msg = case["t"]
        task = {"name": "case %d" % i, "debug": {"msg": msg}, "ignore_errors": True}
        if "w" in case:
            task["when"] = case["w"]
        if case.get("vars"):
            task["vars"] = case["vars"]
        tasks.append(task)
    play = [{"hosts": "localhost", "connection": "local", "gather_facts": False,
             "vars": table.get("common") or {}, "tasks": tasks}]
    inv = os.path.join(HERE, "gen_inventory.ini")
    with open(inv, "w") as f:
        f.write(table.get("inventory") or "localhost\n")
    pb = os.path.join(HERE, "gen_playbook.yml")
    with open(pb, "w") as f:
        yaml.safe_dump(play, f, default_flow_style=False, allow_unicode=True, width=10000, sort_keys=False)
    env = dict(os.environ, ANSIBLE_STDOUT_CALLBACK="json", ANSIBLE_LOCALHOST_WARNING="false",
               ANSIBLE_DEPRECATION_WARNINGS="false", ANSIBLE_NOCOLOR="1",
               TENDER_TEST_ENV="hello", TENDER_TEST_ENV2="world")
    env.pop("TENDER_TEST_UNSET_XYZ", None)
    if table.get("jinja2_native"):
        env["ANSIBLE_JINJA2_NATIVE"] = "1"
    out = subprocess.run(["ansible-playbook", "-i", inv, pb], cwd=HERE, env=env,
                         capture_output=True, text=True)
    try:
        res = json.loads(out.stdout)
    except ValueError:
        sys.stderr.write(out.stdout + out.stderr)
        raise
    results = []
    for i, t in enumerate(res["plays"][0]["tasks"]):
        assert t["task"]["name"] == "case %d" % i, t["task"]["name"]
        case = table["cases"][i]
        if isinstance(case, str):
            case = {"e": case}
        h = t["hosts"]["localhost"]
        rec = {"id": i}
        rec.update({k: case[k] for k in ("e", "t", "w") if k in case})
        if h.get("failed"):
            rec["error"] = h.get("msg", "")
        elif "w" in case:
            rec["value"] = not h.get("skipped", False)
        elif "e" in case:
            typ, _, js = h["msg"].partition(SEP)
            rec["type"] = norm_type(typ)
            rec["json"] = js
        else:
            rec["value"] = h["msg"]
        results.append(rec)
    keep_passlib_records(results, out_path)
    with open(os.path.join(HERE, out_path), "w") as f:
        json.dump({"ansible": subprocess.run(["ansible", "--version"], capture_output=True,
                                             text=True).stdout.splitlines()[0],
                   "results": results}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("%d cases recorded" % len(results))


def keep_passlib_records(results, out_path):
    if importlib.util.find_spec("passlib") is not None:
        return
    try:
        with open(os.path.join(HERE, out_path)) as f:
            old = {(r.get("e"), r.get("t"), r.get("w")): r for r in json.load(f)["results"]}
    except (OSError, ValueError):
        old = {}
    kept = 0
    for i, rec in enumerate(results):
        src = rec.get("e") or rec.get("t") or rec.get("w") or ""
        prev = old.get((rec.get("e"), rec.get("t"), rec.get("w")))
        if "password_hash" in src and prev is not None:
            results[i] = dict(prev, id=rec["id"])
            kept += 1
    sys.stderr.write("warning: passlib is not installed; kept the recorded answers of %d "
                     "password_hash cases\n" % kept)


if __name__ == "__main__":
    main()
