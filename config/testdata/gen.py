#!/usr/bin/python3
"""Record what ansible-config prints for every scenario of scenarios.yaml.

Run by hand (not in CI) from this directory with Debian's ansible-core 2.14:

    ./gen.py            # writes dump/<scenario>.json

Each scenario runs `ansible-config dump -t all --format json` in a fresh
directory (home/ is HOME, cwd/ the working directory), with the scenario's
files and environment and nothing else. The record holds, per base setting
and per plugin option, the value and its origin; CONFIG_FILE; the warnings
and the error ansible-config printed (the warnings without whitespace:
Display wraps them at the terminal's width). The scenario's directory is written
as @ROOT@, the per-run temporary directory of DEFAULT_LOCAL_TMP as
@LOCAL_TMP@.
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
    root = tempfile.mkdtemp(prefix="tender-config-")
    try:
        for d in ("home", "cwd", "other"):
            os.mkdir(os.path.join(root, d))
        for path, text in (scn.get("files") or {}).items():
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        for d in scn.get("writable") or []:
            os.chmod(os.path.join(root, d), 0o777)
        env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": os.path.join(root, "home"),
               "COLUMNS": "100000"}
        for k, v in (scn.get("env") or {}).items():
            env[k] = v.replace("@ROOT@", root)
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


def main():
    if os.path.exists("/etc/ansible/ansible.cfg"):
        sys.exit("/etc/ansible/ansible.cfg exists: every scenario would read it; record elsewhere")
    with open(os.path.join(HERE, "scenarios.yaml")) as f:
        scenarios = yaml.safe_load(f)["scenarios"]
    os.makedirs(os.path.join(HERE, "dump"), exist_ok=True)
    for scn in scenarios:
        record(scn)


if __name__ == "__main__":
    main()
