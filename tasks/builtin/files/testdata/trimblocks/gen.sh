#!/usr/bin/env bash
# shellcheck shell=bash
# Records what ansible-playbook's template module writes for the templates
# here with trim_blocks, lstrip_blocks and a #jinja2: header (rerun by
# hand with Debian's ansible-core; TestTemplateBlocksAgainstAnsible in
# tasks/builtin/files compares tender's output with the files in out/).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
cat >/tmp/trimblocks-gen.yml <<PLAY
- hosts: localhost
  gather_facts: false
  tasks:
    - template: {src: "$PWD/templates/{{ item.src }}", dest: "$PWD/out/{{ item.out }}", trim_blocks: "{{ item.trim | default(true) }}", lstrip_blocks: "{{ item.lstrip | default(false) }}"}
      loop:
        - {src: a.j2, out: default.txt}
        - {src: a.j2, out: notrim.txt, trim: false}
        - {src: a.j2, out: lstrip.txt, lstrip: true}
        - {src: a.j2, out: both.txt, trim: false, lstrip: true}
        - {src: h.j2, out: header.txt}
        - {src: m.j2, out: markers.txt}
PLAY
ANSIBLE_LOCALHOST_WARNING=0 ansible-playbook /tmp/trimblocks-gen.yml >/dev/null
rm -f /tmp/trimblocks-gen.yml
echo "recorded $(ls out | wc -l) outputs"
