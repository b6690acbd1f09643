#!/bin/sh
# Records ansible-playbook's exit status, stdout and stderr for each case
# of cases.txt into codes.txt, out/NAME and out/NAME.err. Run by hand, in this
# directory, where ansible-core 2.14 is installed:  sh gen.sh
set -u
cd "$(dirname "$0")"
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORKS=1 ANSIBLE_HOST_KEY_CHECKING=0 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_CONFIG=empty.cfg
mkdir -p out
: > codes.txt
grep -v '^#' cases.txt | while IFS='|' read -r name args; do
	name=${name%+out}
	# A first STDIN=a,b word is the case's input, a line per item;
	# then leading NAME=value words are its environment.
	# shellcheck disable=SC2086 # the arguments are split as a shell would
	set -- $args
	input=/dev/null
	case $1 in STDIN=*)
		printf '%s\n' "${1#STDIN=}" | tr , '\n' > in.tmp
		input=in.tmp
		shift
	esac
	envs=
	while [ $# -gt 0 ] && case $1 in ANSIBLE_*=*) true ;; *) false ;; esac; do
		envs="$envs $1"
		shift
	done
	# shellcheck disable=SC2086
	env $envs ansible-playbook "$@" < "$input" > out.tmp 2> err.tmp
	echo "$name $?" >> codes.txt
	sed "s#$PWD/#@DIR@/#g" out.tmp > "out/$name"
	sed "s#$PWD/#@DIR@/#g" err.tmp > "out/$name.err"
done
rm -f out.tmp err.tmp in.tmp

# Ctrl-C: one SIGINT while the first task runs (timeout sends it, so that
# the shell does not leave SIGINT ignored as for a background job).
timeout --preserve-status -s INT 2 ansible-playbook -i hosts sleep.yml < /dev/null > out.tmp 2> err.tmp
echo "interrupted $?" >> codes.txt
sed "s#$PWD/#@DIR@/#g" err.tmp > out/interrupted.err
rm -f out.tmp err.tmp
