#!/bin/sh
# gen.sh records ansible.posix 1.5.4's selinux (under ansible-core 2.14) on
# a fresh fleet VM booted with SELinux (security=selinux, Debian's
# reference policy, permissive), after setup.sh: ansible.json, compared
# by TestSelinuxFleet (tasks/builtin/files/selinux_e2e_test.go). The
# last task turns enforcing on.
#
# Run by hand from anywhere: sh tasks/builtin/testdata/selinux/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TENDER_VM_APPEND=security=selinux sh "$here/../service_facts/record.sh" vm "$here" tasks.yml ansible.json
