"""Writes random INI inventories for difftest.sh: python3 random_ini.py SEED COUNT (into the current directory)."""
import random, os, sys
vals = ["1", "-2", "1.5", "0755", "True", "yes", "None", "'q'", '"dq"', "[1,2]", "{'a':1}", "x#y", "a=b", "''", "0x10", "1e3", "'a b'", "\"a b\"", "u'x'", "[1, 'a']", "{\"k\": [1]}", "abc", "1_0", ".5", "5."]
gvals = vals + ["a b c", "x # c", "1 # c", "'a' 'b'", " spaced "]
random.seed(int(sys.argv[1]))
for n in range(int(sys.argv[2])):
    d = f"c{n}"; os.makedirs(d, exist_ok=True)
    L = []
    ng = random.randint(1, 6)
    groups = [f"g{i}" for i in range(ng)]
    hosts = [f"h{i}" for i in range(random.randint(1, 8))]
    for h in random.sample(hosts, random.randint(0, min(2, len(hosts)))):
        L.append(h + "".join(f" v{random.randint(0,3)}={random.choice(vals)}" for _ in range(random.randint(0,2))))
    order = groups[:]; random.shuffle(order)
    for g in order:
        kind = random.choice(["hosts", "hosts", "children", "vars"])
        if kind == "hosts":
            L.append(f"[{g}]")
            for h in random.sample(hosts, random.randint(0, len(hosts))):
                port = random.choice(["", "", ":22", ":2222"])
                L.append(h + port + "".join(f" v{random.randint(0,3)}={random.choice(vals)}" for _ in range(random.randint(0,2))))
            if random.random() < 0.3:
                L.append(f"r{g}[{random.randint(0,2)}:{random.randint(2,4)}]")
        elif kind == "children":
            i = groups.index(g)
            kids = groups[i+1:]
            L.append(f"[{g}:children]")
            for k in random.sample(kids, random.randint(0, len(kids))):
                L.append(k)
        if kind == "vars" or random.random() < 0.5:
            L.append(f"[{g}:vars]")
            for _ in range(random.randint(0, 3)):
                L.append(f"v{random.randint(0,3)}={random.choice(gvals)}")
            if random.random() < 0.3:
                L.append(f"ansible_group_priority={random.randint(0,5)}")
    # ensure every group declared
    for g in groups:
        L.append(f"[{g}]")
    if random.random() < 0.5:
        L.append("[all:vars]"); L.append(f"v0={random.choice(gvals)}"); L.append(f"v9={random.choice(gvals)}")
    open(f"{d}/hosts", "w").write("\n".join(L) + "\n")
