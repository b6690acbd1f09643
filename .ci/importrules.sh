#!/usr/bin/env bash
# Checks the import rules of DESIGN.md mechanically: every package's direct
# imports are listed with `go list` and matched against the rules below.
# Exits non-zero and names each offending import.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)

# The layers, bottom first. A package sits in the layer of the longest
# path below that holds it; it imports only from lower layers, or from
# its own layer within its own top-level folder. A package in no layer
# is an error: a new one is placed here.
layers='
0 vault
1 internal
2 config inventory transport playbooks/expr
3 transport/ssh transport/local transport/docker transport/transporttest sandbox
4 playbooks tasks
5 tasks/builtin provision/facts
6 provision
7 provision/report
8 agents
9 agents/store agents/examples
10 cmd e2e
'

go list -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}' ./... | awk -v mod="$mod" -v layers="$layers" '
BEGIN {
	n = split(layers, lines, "\n")
	for (i = 1; i <= n; i++) {
		m = split(lines[i], w, " ")
		for (j = 2; j <= m; j++) layer[w[j]] = w[1] + 0
	}
}
# rank is the layer of package p (a path relative to the module), -1 for none.
function rank(p,   q) {
	for (q = p; q != ""; ) {
		if (q in layer) return layer[q]
		if (index(q, "/") == 0) break
		sub(/\/[^\/]*$/, "", q)
	}
	return -1
}
function top(p) { sub(/\/.*/, "", p); return p }
function ours(p) { return index(p, mod "/") == 1 || p == mod }
function rel(p) { return substr(p, length(mod) + 2) }
function bad(pkg, imp, why) { printf "import rule: %s imports %s: %s\n", rel(pkg), imp, why; failed = 1 }
{
	pkg = $1; me = rel(pkg)
	if (rank(me) < 0) { printf "import rule: %s is in no layer: place it in .ci/importrules.sh\n", me; failed = 1 }
	for (i = 2; i <= NF; i++) {
		imp = $i; r = rel(imp)
		if (ours(imp)) {
			if (rank(r) > rank(me)) bad(pkg, r, "an import runs up the layers (" rank(me) " to " rank(r) ")")
			else if (rank(r) == rank(me) && top(r) != top(me)) bad(pkg, r, "packages of one layer (" rank(me) ") import only within their own folder")
			if (r ~ /^cmd(\/|$)/ || r ~ /^e2e(\/|$)/) bad(pkg, r, "nothing imports cmd or e2e")
			if (me == "inventory" || me ~ /^inventory\//) {
				if (r !~ /^internal\/(yaml11|pyfmt|pydict|pyre|fqcn|pyescape|hostpattern|osproc)$/ && r !~ /^inventory(\/|$)/) bad(pkg, r, "inventory imports nothing of ours but internal/yaml11, internal/pyfmt, internal/pydict, internal/pyre, internal/fqcn, internal/pyescape, internal/hostpattern and internal/osproc")
			}
			if (me ~ /^playbooks\/expr(\/|$)/ && r !~ /^playbooks\/expr(\/|$)/ && r !~ /^internal\/(yaml11|pyfmt|pyre|pydict|pyini|pykv|pytext|fqcn|boolean|pyescape|hostpattern|pyyaml|osproc)$/) bad(pkg, r, "playbooks/expr imports nothing of ours but internal/yaml11, internal/pyfmt, internal/pyre, internal/pydict, internal/pyini, internal/pykv, internal/pytext, internal/fqcn, internal/boolean, internal/pyescape, internal/hostpattern, internal/pyyaml and internal/osproc")
			if (me == "transport" && r !~ /^transport(\/|$)/) bad(pkg, r, "transport imports nothing of ours")
			if (me ~ /^internal\/(pydict|pyre|suggest|hostile|shlex|fqcn|testhook|pyescape|argsyntax)$/) bad(pkg, r, me " is a leaf")
			if (me == "internal/pykv" && r != "internal/pyescape") bad(pkg, r, "internal/pykv imports nothing of ours but internal/pyescape")
			if (me == "internal/hostpattern" && r !~ /^internal\/(pyre|pyfmt|fnmatch)$/) bad(pkg, r, "internal/hostpattern imports nothing of ours but internal/pyre, internal/pyfmt and internal/fnmatch")
			if (me ~ /^vault(\/|$)/) bad(pkg, r, "vault is a leaf: it imports only the standard library")
			if (me == "internal/pyfmt" && r != "internal/pydict") bad(pkg, r, "internal/pyfmt imports nothing of ours but internal/pydict")
			if (me == "internal/yaml11" && r != "internal/pydict" && r != "vault") bad(pkg, r, "internal/yaml11 imports nothing of ours but internal/pydict and vault")
			if (me == "internal/pyini" && r != "internal/pyfmt") bad(pkg, r, "internal/pyini imports nothing of ours but internal/pyfmt")
			if (me == "config" && r !~ /^internal\/(pyini|pyfmt|yaml11|pydict|fqcn|boolean)$/) bad(pkg, r, "config imports nothing of ours but internal/pyini, internal/pyfmt, internal/yaml11, internal/pydict, internal/fqcn and internal/boolean")
			if (me ~ /^provision(\/|$)/ && (r ~ /^transport\/(ssh|local|docker)(\/|$)/ || r ~ /^agents\/store(\/|$)/ || r ~ /^tasks\/builtin(\/|$)/)) bad(pkg, r, "provision gets concrete transports, the store and the built-in registry injected")
			if (me ~ /^tasks(\/|$)/ && r == "provision") bad(pkg, r, "modules never import provision")
			if (me ~ /^tasks\/builtin\/[a-z]+$/ && me != "tasks/builtin/internal" && r ~ /^tasks\/builtin(\/[a-z]+)?$/) bad(pkg, r, "a module family imports tasks/builtin/internal/shared, not the registry or another family")
			if (me == "tasks/builtin/internal/shared" && r ~ /^tasks\/builtin(\/[a-z]+)?$/) bad(pkg, r, "tasks/builtin/internal/shared imports no module family")
		} else {
			if (imp ~ /^github.com\/mattn\/go-sqlite3/ && me !~ /^agents\/store(\/|$)/) bad(pkg, imp, "only agents/store imports the SQLite driver")
			if (imp ~ /^github.com\/jackc\/pgx/ && me !~ /^agents\/store(\/|$)/) bad(pkg, imp, "only agents/store imports the PostgreSQL driver")
			if ((imp ~ /^golang.org\/x\/crypto\/ssh/ || imp ~ /^github.com\/pkg\/sftp/) && me !~ /^transport\/ssh(\/|$)/) bad(pkg, imp, "only transport/ssh imports SSH and SFTP")
		}
	}
}
END { exit failed }
'
echo "import rules: ok"
