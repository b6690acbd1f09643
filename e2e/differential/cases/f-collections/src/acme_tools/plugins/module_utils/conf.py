# Reading and writing key=value files, for acme.tools' modules.

def parse(text):
    out = {}
    for line in text.splitlines():
        if '=' in line:
            k, v = line.split('=', 1)
            out[k.strip()] = v.strip()
    return out


def render(values):
    return ''.join('%s=%s\n' % (k, values[k]) for k in sorted(values))
