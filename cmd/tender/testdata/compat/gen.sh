#!/bin/sh
# Records the --help of ansible-core 2.14's commands, whose options
# docs/COMPATIBILITY.md must each account for (compat_test.go). Run by hand
# where ansible-core is installed:  sh gen.sh
set -eu
cd "$(dirname "$0")"
export ANSIBLE_NOCOLOR=1 COLUMNS=200
ansible-playbook --help > ansible-playbook.help
ansible --help > ansible.help
for sub in create decrypt edit view encrypt encrypt_string rekey; do
	ansible-vault "$sub" --help > "ansible-vault-$sub.help"
done
ansible-inventory --help > ansible-inventory.help
ansible-config dump --help > ansible-config-dump.help
