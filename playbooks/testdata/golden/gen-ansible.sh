#!/bin/sh
# Records what ansible-playbook (Debian's ansible-core) says about each
# golden playbook: --syntax-check, then --list-tasks, into
# <case>/ansible-list-tasks.txt. The Go test compares tender's task list
# with it. Run by hand from anywhere; needs /usr/bin/ansible-playbook.
#
# A case whose site.yml is a bare list of tasks (an agent playbook) is run
# through a wrapper play "- hosts: all / tasks: - import_tasks: site.yml",
# which lists the same tasks with the same tags. Such a case holds a file
# named TASKLIST.
set -eu
cd "$(dirname "$0")"
export PYTHONHASHSEED=0 ANSIBLE_NOCOLOR=1 ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
for dir in */; do
	dir=${dir%/}
	[ -f "$dir/site.yml" ] || continue
	pb=site.yml
	if [ -f "$dir/TASKLIST" ]; then
		printf -- '- hosts: all\n  tasks:\n    - import_tasks: site.yml\n' > "$dir/.wrapper.yml"
		pb=.wrapper.yml
	fi
	(
		cd "$dir"
		ansible-playbook -i localhost, --syntax-check "$pb" >/dev/null
		ansible-playbook -i localhost, --list-tasks "$pb" | sed "s|^playbook: .*|playbook: site.yml|"
	) > "$dir/ansible-list-tasks.txt"
	rm -f "$dir/.wrapper.yml"
	echo "$dir: ok"
done
