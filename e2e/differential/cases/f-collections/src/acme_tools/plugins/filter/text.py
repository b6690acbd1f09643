# acme.tools' filters.


def shout(s):
    return s.upper() + '!'


class FilterModule(object):
    def filters(self):
        return {'shout': shout}
