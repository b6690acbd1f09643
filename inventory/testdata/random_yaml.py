"""Writes random YAML inventories with group_vars/ and host_vars/ for difftest.sh: python3 random_yaml.py SEED COUNT (into the current directory)."""
import random, os, sys
vals = ["1", "yes", "no", "on", "Off", "0755", "0x1f", "1:30", "1.5", "1e3", "~", "null", "'quoted'", "\"dq\"", "[1, yes]", "{a: 1}", "2024-01-01", "abc", "!unsafe '{{ x }}'", "+1", "-0", ".inf", "0o17", "1_000", "0b101", "TRUE", "y", "n", "'0755'"]
random.seed(int(sys.argv[1]))
def vars_block(ind):
    out = []
    for _ in range(random.randint(0, 3)):
        out.append(f"{ind}v{random.randint(0,3)}: {random.choice(vals)}")
    if random.random() < 0.2:
        out.append(f"{ind}ansible_group_priority: {random.randint(0,5)}")
    return out
for n in range(int(sys.argv[2])):
    d = f"y{n}"; os.makedirs(d + "/group_vars", exist_ok=True); os.makedirs(d + "/host_vars", exist_ok=True)
    groups = [f"g{i}" for i in range(random.randint(1, 5))]
    hosts = [f"h{i}" for i in range(random.randint(1, 6))]
    L = []
    def group(g, ind, depth):
        L.append(f"{ind}{g}:")
        i = groups.index(g)
        if random.random() < 0.7:
            L.append(f"{ind}  hosts:")
            for h in random.sample(hosts, random.randint(1, len(hosts))):
                vs = vars_block(ind + "      ")
                vs = [v for v in vs if "priority" not in v]
                L.append(f"{ind}    {h}:")
                L.extend(vs)
        if random.random() < 0.5:
            vs = vars_block(ind + "    ")
            if vs:
                L.append(f"{ind}  vars:"); L.extend(vs)
        kids = groups[i+1:]
        if kids and depth < 3 and random.random() < 0.6:
            L.append(f"{ind}  children:")
            for k in random.sample(kids, random.randint(1, len(kids))):
                group(k, ind + "    ", depth + 1)
    top = random.sample(groups, random.randint(1, len(groups)))
    if random.random() < 0.5:
        L.append("all:")
        L.append("  vars:"); L.extend(vars_block("    ") or ["    v0: 1"])
        L.append("  children:")
        for g in top: group(g, "    ", 1)
    else:
        for g in top: group(g, "", 0)
    open(f"{d}/inv.yml", "w").write("\n".join(L) + "\n")
    for g in random.sample(groups + ["all"], random.randint(0, min(3, len(groups)+1))):
        open(f"{d}/group_vars/{g}.yml", "w").write("\n".join(vars_block("")) + "\n")
    for h in random.sample(hosts, random.randint(0, min(2, len(hosts)))):
        open(f"{d}/host_vars/{h}", "w").write("\n".join(vars_block("")) + "\n")
