#!/bin/sh
# Records expected.out: ansible-playbook's output of pb.yml with the yaml
# stdout callback, as TestYAMLCallback compares it (timing values
# replaced by T, interpreter discovery's facts left out: tender has none).
cd "$(dirname "$0")" && ANSIBLE_STDOUT_CALLBACK=yaml ANSIBLE_CONFIG=/nonexistent ansible-playbook -i hosts pb.yml |
	sed -E "s/'[0-9]{4}-[0-9:. -]+'|'[0-9]:[0-9:.]+'/T/" | grep -v -e '^ *ansible_facts:$' -e 'discovered_interpreter_python' >expected.out
