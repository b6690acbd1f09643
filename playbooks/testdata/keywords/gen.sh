#!/usr/bin/env bash
# Records the playbook keywords ansible-core documents (ansible-doc -t
# keyword) with where each applies and how Ansible templates it: facts
# only, no descriptions. Rerun by hand with Debian's ansible-core; the Go
# test TestKeywordsDocumented (playbooks/keywords_test.go) reads
# keywords.json.
set -euo pipefail
cd "$(dirname "$0")"
names=$(ansible-doc -t keyword -l | grep -o '^[a-z_]*:' | tr -d :)
for k in $names; do ansible-doc -t keyword -j "$k"; done | python3 -c '
import json, sys
dec = json.JSONDecoder()
text = sys.stdin.read()
out, i = {}, 0
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    doc, i = dec.raw_decode(text, i)
    for name, d in doc.items():
        out[name] = {"applies_to": sorted(a.lower() for a in d.get("applies_to") or []),
                     "template": d.get("template"), "type": d.get("type")}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
' >keywords.json
echo "recorded $(grep -c applies_to keywords.json) keywords"
