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
#   {"op": "action", "name": ..., "file": path, "roots": [...], "basedir": dir,
#    "args": {...}, "variables": {...}, "check": b, "diff": b, "verbosity": n}
#       run an action plugin (needs ansible-core) with ansible-core's own
#       loaders, on a connection whose commands and files are tender's:
#       while it runs, the bridge asks {"rpc": "exec", "cmd": ..., "stdin": b64,
#       "sudoable": b} or {"rpc": "put"|"fetch", "src": ..., "dst": ...} and
#       reads the answer ({"rc", "stdout", "stderr"} base64, or {"error"})
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

# The protocol has the real standard output to itself; whatever the
# plugins (and ansible-core's display) print goes to standard error.
proto = os.fdopen(os.dup(1), 'w')
os.dup2(2, 1)
sys.stdout = sys.stderr

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
    install_collections(req.get('roots') or [])
    from ansible.plugins.loader import lookup_loader
    if path and os.path.dirname(path) not in lookup_dirs:
        lookup_loader.add_directory(os.path.dirname(path))
        lookup_dirs.add(os.path.dirname(path))
    inst = lookup_loader.get(name, loader=loader, templar=templar)
    if inst is None:
        raise KeyError('lookup plugin (%s) not found' % name)
    return inst.run(decode(req.get('terms') or []), variables=variables, **decode(req.get('kwargs') or {}))


lookup_dirs = set()


def rpc(obj):
    proto.write(json.dumps(obj) + '\n')
    proto.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError('tender closed the bridge')
    reply = json.loads(line)
    if reply.get('error'):
        raise RuntimeError(reply['error'])
    return reply


def install_collections(roots):
    if roots and not collection_roots:
        from ansible.utils.collection_loader._collection_finder import _AnsibleCollectionFinder
        _AnsibleCollectionFinder(paths=[os.path.dirname(r) for r in roots], scan_sys_paths=False)._install()
        collection_roots.extend(roots)


action_dirs = set()


def run_action(req):
    import base64
    from types import SimpleNamespace
    from ansible.parsing.dataloader import DataLoader
    from ansible.playbook.play_context import PlayContext
    from ansible.playbook.task import Task
    from ansible.plugins import loader as pl
    from ansible.plugins.connection import ConnectionBase
    from ansible.template import Templar
    from ansible.utils.display import Display

    install_collections(req.get('roots') or [])
    Display().verbosity = int(req.get('verbosity') or 0)

    class TenderConnection(ConnectionBase):
        transport = 'tender'
        has_pipelining = True

        def _connect(self):
            self._connected = True
            return self

        def exec_command(self, cmd, in_data=None, sudoable=True):
            if isinstance(in_data, str):
                in_data = in_data.encode('utf-8', 'surrogateescape')
            r = rpc({'rpc': 'exec', 'cmd': cmd, 'sudoable': bool(sudoable),
                     'stdin': base64.b64encode(in_data or b'').decode('ascii')})
            return r['rc'], base64.b64decode(r['stdout']), base64.b64decode(r['stderr'])

        def put_file(self, in_path, out_path):
            rpc({'rpc': 'put', 'src': in_path, 'dst': out_path})

        def fetch_file(self, in_path, out_path):
            rpc({'rpc': 'fetch', 'src': in_path, 'dst': out_path})

        def close(self):
            self._connected = False

    variables = decode(req.get('variables') or {})
    loader = DataLoader()
    if req.get('basedir'):
        loader.set_basedir(req['basedir'])
    templar = Templar(loader=loader, variables=variables)
    pc = PlayContext()
    pc.check_mode = bool(req.get('check'))
    pc.diff = bool(req.get('diff'))
    pc.pipelining = True
    pc.remote_addr = variables.get('inventory_hostname', 'localhost')
    pc.verbosity = int(req.get('verbosity') or 0)
    task = Task()
    task.action = req['name']
    task.resolved_action = req['name']
    task.args = decode(req.get('args') or {})
    task.check_mode = bool(req.get('check'))
    task.diff = bool(req.get('diff'))
    conn = TenderConnection(pc, None)
    shared = SimpleNamespace(action_loader=pl.action_loader, connection_loader=pl.connection_loader,
                             filter_loader=pl.filter_loader, test_loader=pl.test_loader,
                             lookup_loader=pl.lookup_loader, module_loader=pl.module_loader)
    path = req.get('file')
    name = req['name']
    if path:
        d = os.path.dirname(path)
        if d not in action_dirs:
            pl.action_loader.add_directory(d)
            action_dirs.add(d)
        name = os.path.splitext(os.path.basename(path))[0]
    handler = pl.action_loader.get(name, task=task, connection=conn, play_context=pc, loader=loader,
                                   templar=templar, shared_loader_obj=shared)
    if handler is None:
        raise KeyError('the action plugin %s could not be loaded' % name)
    try:
        return handler.run(task_vars=variables)
    finally:
        try:
            handler.cleanup()
        except Exception:
            pass


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
    proto.write(json.dumps(obj) + '\n')
    proto.flush()


def main():
    for line in sys.stdin:
        try:
            req = json.loads(line)
            kind = req.get('kind')
            if req['op'] == 'action':
                answer({'ok': encode(run_action(req))})
            elif req['op'] == 'lookup':
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
