#!/bin/sh
# gen.sh records ansible-core 2.14's file, copy, lineinfile and stat with
# SELinux contexts (seuser, serole, setype, selevel, _default) on a fresh
# fleet VM booted with SELinux (security=selinux, Debian's reference
# policy, permissive): ansible.json, compared by TestSecontextFleet
# (tasks/builtin/files/secontext_e2e_test.go).
#
# Run by hand from anywhere: sh tasks/builtin/testdata/secontext/gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TENDER_VM_APPEND=security=selinux sh "$here/../service_facts/record.sh" vm "$here" tasks.yml ansible.json
