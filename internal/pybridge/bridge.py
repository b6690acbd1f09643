# tender's bridge to Python filter and test plugins: one process per run,
# reading one JSON request per line on stdin and answering one JSON line
# on stdout. Requests:
#   {"op": "names", "kind": "filter"|"test", "files": [[file, prefix], ...]}
#       load the plugin files (once each) and answer the names they give,
#       each under its prefix ("" or "ns.coll.")
#   {"op": "call", "kind": ..., "name": ..., "value": v, "args": [...], "kwargs": {...}}
#   {"op": "lookup", "name": ..., "file": path or "", "roots": [...], "basedir": dir,
#    "terms": [...], "kwargs": {...}, "variables": {...}}
#       run a lookup plugin (needs ansible-core): a file's LookupModule, or
#       a collection's by its fully qualified name through ansible-core's
#       own plugin loader, with the collection roots given
# Answers: {"ok": result} or {"error": text, "type": exception class,
# "class": its qualified name, "category": undefined|options|lookup|other}.
# Values: JSON, with {"__tender_unsafe__": text} for text marked unsafe
# (AnsibleUnsafeText when ansible-core is importable) and
# {"__tender_pairs__": [[k, v], ...]} for a mapping whose keys are not all
# text.
import importlib.util
import json
import os
import sys
import traceback

try:
    import resource
    _limit = int(os.environ.get('TENDER_BRIDGE_MEMORY', '0'))
    if _limit > 0:
        resource.setrlimit(resource.RLIMIT_AS, (_limit, _limit))
except Exception:
    pass

try:
    from ansible.utils.unsafe_proxy import AnsibleUnsafeText, AnsibleUnsafe
except Exception:
    class AnsibleUnsafe(object):
        pass

    class AnsibleUnsafeText(str, AnsibleUnsafe):
        pass

plugins = {'filter': {}, 'test': {}}
loaded = set()


def load(kind, path, prefix):
    key = (kind, path, prefix)
    if key in loaded:
        return
    loaded.add(key)
    name = 'tender_bridge_%s_%d' % (kind, len(loaded))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cls = getattr(mod, 'FilterModule' if kind == 'filter' else 'TestModule', None)
    if cls is None:
        return
    table = cls().filters() if kind == 'filter' else cls().tests()
    for n, f in (table or {}).items():
        plugins[kind].setdefault(prefix + n, f)


def decode(v):
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        if len(v) == 1 and '__tender_unsafe__' in v:
            return AnsibleUnsafeText(v['__tender_unsafe__'])
        if len(v) == 1 and '__tender_pairs__' in v:
            return dict((decode(k), decode(x)) for k, x in v['__tender_pairs__'])
        return dict((k, decode(x)) for k, x in v.items())
    return v


def encode(v, depth=0):
    if depth > 200:
        raise ValueError('a value nested more than 200 deep')
    if v is None or isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, AnsibleUnsafe) and isinstance(v, str):
        return {'__tender_unsafe__': str(v)}
    if isinstance(v, str):
        return str(v)
    if isinstance(v, bytes):
        return v.decode('utf-8', 'surrogateescape')
    if isinstance(v, dict):
        if all(isinstance(k, str) for k in v):
            return dict((str(k), encode(x, depth + 1)) for k, x in v.items())
        return {'__tender_pairs__': [[encode(k, depth + 1), encode(x, depth + 1)] for k, x in v.items()]}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [encode(x, depth + 1) for x in v]
    if hasattr(v, '__iter__') and not isinstance(v, (str, bytes)):
        return [encode(x, depth + 1) for x in v]
    return str(v)


collection_roots = []


def run_lookup(req):
    from ansible.parsing.dataloader import DataLoader
    from ansible.template import Templar
    loader = DataLoader()
    if req.get('basedir'):
        loader.set_basedir(req['basedir'])
    variables = decode(req.get('variables') or {})
    templar = Templar(loader=loader, variables=variables)
    name, path = req['name'], req.get('file')
    roots = req.get('roots') or []
    if roots and not collection_roots:
        from ansible.utils.collection_loader._collection_finder import _AnsibleCollectionFinder
        _AnsibleCollectionFinder(paths=[os.path.dirname(r) for r in roots], scan_sys_paths=False)._install()
        collection_roots.extend(roots)
    from ansible.plugins.loader import lookup_loader
    if path and os.path.dirname(path) not in lookup_dirs:
        lookup_loader.add_directory(os.path.dirname(path))
        lookup_dirs.add(os.path.dirname(path))
    inst = lookup_loader.get(name, loader=loader, templar=templar)
    if inst is None:
        raise KeyError('lookup plugin (%s) not found' % name)
    return inst.run(decode(req.get('terms') or []), variables=variables, **decode(req.get('kwargs') or {}))


lookup_dirs = set()


def category(e):
    names = [c.__name__ for c in type(e).__mro__]
    if 'AnsibleUndefinedVariable' in names or 'UndefinedError' in names:
        return 'undefined'
    if 'AnsibleOptionsError' in names:
        return 'options'
    if 'AnsibleLookupError' in names:
        return 'lookup'
    return 'other'


def qualname(e):
    t = type(e)
    if t.__module__ == 'builtins':
        return t.__name__
    return t.__module__ + '.' + t.__name__


def answer(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        try:
            req = json.loads(line)
            kind = req.get('kind')
            if req['op'] == 'lookup':
                answer({'ok': encode(run_lookup(req))})
            elif req['op'] == 'names':
                errors = []
                for path, prefix in req['files']:
                    try:
                        load(kind, path, prefix)
                    except Exception as e:
                        errors.append('%s: %s: %s' % (path, type(e).__name__, e))
                answer({'ok': sorted(plugins[kind]), 'errors': errors})
            elif req['op'] == 'call':
                f = plugins[kind][req['name']]
                args = decode(req.get('args') or [])
                kwargs = decode(req.get('kwargs') or {})
                res = f(decode(req['value']), *args, **kwargs)
                if kind == 'test':
                    res = bool(res)
                answer({'ok': encode(res)})
            else:
                answer({'error': 'unknown op %r' % req['op'], 'type': 'ValueError'})
        except Exception as e:
            answer({'error': str(e), 'type': type(e).__name__, 'class': qualname(e), 'category': category(e),
                    'trace': traceback.format_exc()})


main()
