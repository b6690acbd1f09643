#!/bin/sh
# gen.sh records what ansible-core returns for the tasks in tasks.yml, for
# fidelity_test.go. It runs them with ansible-playbook (connection: local)
# against a fresh temporary directory, registers every result and writes
# them to ansible.json, with that directory replaced by ROOT, the
# controller's copy of files/ by FILES, of templates/ by TEMPLATES and the
# playbook's directory by WORK.
#
# The other lists are recorded the same way, each to its own file:
#
#	tasks_diff.yml       ansible_diff.json       (with --diff)
#	tasks_files.yml      ansible_files.json      lineinfile, replace, blockinfile, slurp
#	tasks_ini.yml        ansible_ini.json        ini_file
#	tasks_ini_diff.yml   ansible_ini_diff.json   the text modules (with --diff)
#	tasks_data.yml       ansible_data.json       template (templates/), tempfile
#	tasks_data_diff.yml  ansible_data_diff.json  template (with --diff)
#	tasks_find.yml       ansible_find.json       find
#	tasks_assemble.yml   ansible_assemble.json   assemble, fetch
#	system_local.yml     ansible_system_local.json       cron, known_hosts, sysctl files
#	system_local_diff.yml ansible_system_local_diff.json  the same (with --diff)
#
# Run by hand from anywhere: sh tasks/builtin/testdata/gen.sh [tasks_files.yml ...]
# Needs ansible-playbook (Debian's ansible-core 2.14) and python3; tasks_ini.yml
# also needs community.general 6.6 (Debian's ansible package) for ini_file.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$here/files" "$work/files"
cp -R "$here/templates" "$work/templates"
chmod 0644 "$work/files/hello.sh"

# record TASKS OUT [ansible-playbook flags]: run TASKS in a fresh root and
# write what each task registered to OUT.
record() {
	rm -rf "$work/root" "$work/out.json" && mkdir "$work/root"
	python3 - "$here/$1" "$work" <<'PY'
import sys, yaml
tasks = yaml.safe_load(open(sys.argv[1]))
work = sys.argv[2]
names = []
for t in tasks:
    t['register'] = 'r_' + t['name']
    t['ignore_errors'] = True
    names.append(t['register'])
record = {'name': 'record', 'copy': {'dest': work + '/out.json',
          'content': "{{ dict(names | zip(names | map('extract', hostvars['localhost']))) | to_nice_json }}"},
          'diff': False}
play = [{'hosts': 'localhost', 'connection': 'local', 'gather_facts': False,
         'vars': {'root': work + '/root', 'names': names,
                  'ansible_python_interpreter': '/usr/bin/python3'},
         'tasks': tasks + [record]}]
yaml.safe_dump(play, open(work + '/play.yml', 'w'), sort_keys=False)
PY
	out=$2
	shift 2
	(cd "$work" && ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ansible-playbook -i localhost, "$@" play.yml >"$work/log" 2>&1) || {
		cat "$work/log" >&2
		exit 1
	}
	python3 - "$work" "$here/$out" <<'PY'
import sys, json
work, out = sys.argv[1], sys.argv[2]
data = json.load(open(work + '/out.json'))
text = json.dumps({k[2:]: v for k, v in data.items()}, indent=1, sort_keys=True)
text = text.replace(work + '/root', 'ROOT').replace(work + '/files', 'FILES').replace(work + '/templates', 'TEMPLATES').replace(work, 'WORK')
open(out, 'w').write(text + '\n')
PY
	echo "wrote $here/$out"
}

# Arguments name the task lists to record (all of them without any).
only=" ${*:-all} "
want() { case $only in *" all "* | *" $1 "*) return 0 ;; esac; return 1; }
want tasks.yml && record tasks.yml ansible.json
want tasks_diff.yml && record tasks_diff.yml ansible_diff.json --diff
want tasks_files.yml && record tasks_files.yml ansible_files.json
want tasks_ini.yml && record tasks_ini.yml ansible_ini.json
want tasks_ini_diff.yml && record tasks_ini_diff.yml ansible_ini_diff.json --diff
want tasks_data.yml && record tasks_data.yml ansible_data.json
want tasks_data_diff.yml && record tasks_data_diff.yml ansible_data_diff.json --diff
want tasks_find.yml && record tasks_find.yml ansible_find.json
want tasks_assemble.yml && record tasks_assemble.yml ansible_assemble.json
want system_local.yml && record system_local.yml ansible_system_local.json
want system_local_diff.yml && record system_local_diff.yml ansible_system_local_diff.json --diff
