#!/bin/sh
# Records CALLBACK.out for each stdout callback TestStdoutCallbacks
# checks: ansible-playbook's output of pb.yml, with timing values replaced
# by T, and what tender does not have left out: interpreter discovery's
# facts, and the module invocation of each loop item.
cd "$(dirname "$0")" || exit 1
for cb in yaml minimal oneline; do
	ANSIBLE_STDOUT_CALLBACK=$cb ANSIBLE_CONFIG=/nonexistent ansible-playbook -i hosts pb.yml |
		sed -E -e "s/'[0-9]{4}-[0-9:. -]+'|'[0-9]:[0-9:.]+'/T/g" -e 's/"(delta|end|start)": "[^"]*"/"\1": T/g' \
			-e 's/"invocation": \{"module_args": \{[^}]*\}\},//g' |
		grep -v -e '^ *ansible_facts:$' -e 'discovered_interpreter_python' >"$cb.out"
done
