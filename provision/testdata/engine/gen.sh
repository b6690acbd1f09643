#!/usr/bin/env bash
# Records what ansible-playbook prints for each engine case (a directory
# holding hosts and pb.yml, every host on the local connection). Rerun by
# hand with Debian's ansible-core; the Go tests compare tender's output.
# The case's directory is written as @DIR@ (included files' paths).
set -euo pipefail
cd "$(dirname "$0")"
for d in */; do
	d=${d%/}
	(cd "$d" && ANSIBLE_NOCOLOR=1 ANSIBLE_FORKS=1 ANSIBLE_HOST_KEY_CHECKING=0 ANSIBLE_RETRY_FILES_ENABLED=0 \
		ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_DEPRECATION_WARNINGS=0 \
		ansible-playbook -i hosts pb.yml 2>/dev/null | sed "s#$PWD/#@DIR@/#g" >ansible.out || echo "exit $?" >>ansible.out)
	echo "recorded $d"
done
