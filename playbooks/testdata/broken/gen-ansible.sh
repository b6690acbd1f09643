#!/bin/sh
# Records what ansible-playbook --syntax-check says about each broken
# fixture, into <case>/ansible.txt (its first ERROR line, or "ANSIBLE
# ACCEPTS" when Ansible only finds the problem at run time). A case that
# Ansible accepts must explain the difference in <case>/difference.txt;
# the Go test checks that. Run by hand; needs /usr/bin/ansible-playbook.
set -eu
cd "$(dirname "$0")"
export PYTHONHASHSEED=0 ANSIBLE_NOCOLOR=1 ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_LOCALHOST_WARNING=0
for dir in */; do
	dir=${dir%/}
	out=$(cd "$dir" && ansible-playbook -i localhost, --syntax-check site.yml 2>&1 | grep -m1 '^ERROR' | sed -e "s|$PWD/||g" -e "s|$PWD|.|g" -e "s|$HOME|~|g" || true)
	printf '%s\n' "${out:-ANSIBLE ACCEPTS}" > "$dir/ansible.txt"
	echo "$dir: $(cat "$dir/ansible.txt" | cut -c1-100)"
done
