#!/usr/bin/env bash
# Records what ansible-playbook prints for each engine case (a directory
# holding hosts and pb.yml, every host on the local connection), or for the
# cases named as arguments. Rerun by hand with Debian's ansible-core; the Go
# tests compare tender's output. ansible-playbook runs in the case's
# directory with the environment of ansible.env (the Go tests give tender's
# configuration the same); the case's directory is written as @DIR@
# (included files' paths).
set -euo pipefail
cd "$(dirname "$0")"
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
	cases=(*/)
fi
for d in "${cases[@]}"; do
	d=${d%/}
	(cd "$d" && set -a && . ../ansible.env && set +a &&
		ansible-playbook -i hosts pb.yml 2>/dev/null | sed "s#$PWD/#@DIR@/#g" >ansible.out || echo "exit $?" >>ansible.out)
	echo "recorded $d"
done
