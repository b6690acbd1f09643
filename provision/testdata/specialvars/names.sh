#!/usr/bin/env bash
# Regenerates names.txt: the names of the "Special Variables" page of
# Ansible's documentation (reference_appendices/special_variables.rst),
# one a line, in the page's order. Give it the page's source, or a git
# directory of the ansible-documentation repository (read at HEAD).
set -euo pipefail
cd "$(dirname "$0")"
src=${1:?usage: names.sh special_variables.rst | GIT_DIR}
if [ -d "$src" ]; then
	text=$(git --git-dir="$src" show HEAD:docs/docsite/rst/reference_appendices/special_variables.rst)
else
	text=$(cat "$src")
fi
# Glossary terms: a line of four spaces and a lower-case name.
grep -E '^    [a-z_]+$' <<<"$text" | sed 's/^ *//' >names.txt
echo "names.txt: $(wc -l <names.txt) names"
