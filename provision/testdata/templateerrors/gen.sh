#!/usr/bin/env bash
# Records ansible-playbook's answer to each task of pb.yml in want.txt: one
# line per task, "failed | msg | exception's last line" (the playbook's
# directory written as @DIR@). Rerun by hand with Debian's ansible-core.
set -euo pipefail
cd "$(dirname "$0")"
ANSIBLE_STDOUT_CALLBACK=json ansible-playbook -i localhost, -c local pb.yml 2>/dev/null |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for t in d["plays"][0]["tasks"]:
    r = t["hosts"]["localhost"]
    exc = (r.get("exception") or "").strip().split("\n")[-1]
    print(json.dumps([bool(r.get("failed")), r.get("msg", ""), exc], separators=(",", ":"), ensure_ascii=False))
' | sed "s#$PWD/#@DIR@/#g" >want.txt
