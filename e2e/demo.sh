#!/usr/bin/env bash
# make demo: tender on the example fleet's inventory and agent playbook.
# Until the engine lands this reads and checks everything without touching a
# host: the inventory as ansible-inventory shows it, then the playbook's plays,
# hosts and tasks as ansible-playbook --list-hosts --list-tasks shows them.
set -euo pipefail
cd "$(dirname "$0")"
tender=../bin/tender
set -x
$tender version
$tender inventory graph -i examples/hosts.ini
$tender inventory host -i examples/hosts.ini db1
$tender play --syntax-check -i examples/hosts.ini examples/site.yml
$tender play --list-hosts --list-tasks -i examples/hosts.ini examples/site.yml
