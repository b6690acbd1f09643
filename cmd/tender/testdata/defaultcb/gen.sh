#!/bin/sh
# Records NAME.out for each case TestDefaultCallbackOptions runs:
# ansible-playbook's stdout and stderr for pb.yml with the default
# callback's options the case sets (in the environment), this
# directory's path left out of task paths.
cd "$(dirname "$0")" || exit 1
run() {
	name=$1
	shift
	# shellcheck disable=SC2086 # ARGS is a list of words
	env ANSIBLE_CONFIG=/nonexistent "$@" ansible-playbook -i hosts -f 1 ${ARGS:-pb.yml} 2>"$name.err" | sed "s#$PWD/##" >"$name.out"
}
run hide-skipped ANSIBLE_DISPLAY_SKIPPED_HOSTS=0
run hide-ok ANSIBLE_DISPLAY_OK_HOSTS=0 ANSIBLE_SHOW_TASK_PATH_ON_FAILURE=1
run hide-both ANSIBLE_DISPLAY_SKIPPED_HOSTS=0 ANSIBLE_DISPLAY_OK_HOSTS=0 ANSIBLE_DISPLAY_FAILED_STDERR=1
ARGS="--check check.yml" run check-markers ANSIBLE_CHECK_MODE_MARKERS=1
