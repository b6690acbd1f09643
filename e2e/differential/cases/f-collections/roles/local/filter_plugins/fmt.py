# A role's filter plugin: a mapping as key=value lines.


def kv(d):
    return ''.join('%s=%s\n' % (k, d[k]) for k in sorted(d))


class FilterModule(object):
    def filters(self):
        return {'kv': kv}
