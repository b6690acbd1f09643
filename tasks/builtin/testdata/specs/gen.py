#!/usr/bin/python3
"""Records the argument specifications of the modules tender implements,
as ansible-core 2.14 (and the collections Debian's ansible package ships)
declares them, into specs.json beside this script. Rerun by hand with
Debian's python3 and ansible-core; TestSpecCoverage compares tender's
modules with the recording.

Only facts are kept: option names, types, element types, defaults,
choices, aliases, whether required, the rules between options, and the
names of the documented return values. No description is copied.

A module's real argument_spec is taken from the module itself: its
AnsibleModule is replaced by one that stops the module as soon as it is
built and keeps what it was given. A module that runs on the controller
(an action plugin) has no AnsibleModule; its documented options are used.
"""
import importlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class Captured(Exception):
    def __init__(self, kwargs):
        super().__init__("captured")
        self.kwargs = kwargs


def capture(fqcn):
    """The keyword arguments the module gives AnsibleModule, or None."""
    import ansible.module_utils.basic as basic
    ns, coll, name = fqcn.split(".", 2)
    if ns == "ansible" and coll == "builtin":
        modname = "ansible.modules." + name
    else:
        modname = "ansible_collections.%s.%s.plugins.modules.%s" % (ns, coll, name)
    orig = basic.AnsibleModule.__init__

    def fake(self, *args, **kwargs):
        if args:
            kwargs["argument_spec"] = args[0]
        raise Captured(kwargs)

    basic.AnsibleModule.__init__ = fake
    try:
        mod = importlib.import_module(modname)
        if not hasattr(mod, "main"):
            return None
        sys.argv = [name]
        mod.main()
    except Captured as c:
        return c.kwargs
    except BaseException:
        return None
    finally:
        basic.AnsibleModule.__init__ = orig
    return None


def plain(v):
    if isinstance(v, (set, frozenset, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if callable(v):
        return getattr(v, "__name__", "callable")
    return v


def options(spec):
    out = {}
    for name, o in (spec or {}).items():
        e = {}
        for k in ("type", "elements", "default", "choices", "aliases"):
            if o.get(k) is not None:
                e[k] = plain(o[k])
        for k in ("required", "no_log"):
            if o.get(k):
                e[k] = True
        if isinstance(e.get("type"), str) is False and "type" in e:
            e["type"] = "callable"
        if o.get("options"):
            e["suboptions"] = sorted(o["options"])
        out[name] = e
    return out


def doc(fqcn):
    raw = subprocess.run(["ansible-doc", "-j", fqcn], capture_output=True, text=True).stdout
    d = json.loads(raw or "{}").get(fqcn) or {}
    return (d.get("doc") or {}), (d.get("return") or {})


def main():
    modules = json.load(open(os.path.join(HERE, "modules.json")))
    out = {}
    for name, fqcn in sorted(modules.items()):
        d, ret = doc(fqcn)
        rec = {"fqcn": fqcn, "returns": sorted(ret)}
        kw = capture(fqcn)
        if kw is not None:
            rec["source"] = "argument_spec"
            spec = dict(kw.get("argument_spec") or {})
            if kw.get("add_file_common_args"):
                from ansible.module_utils.basic import FILE_COMMON_ARGUMENTS
                for k, v in FILE_COMMON_ARGUMENTS.items():
                    spec.setdefault(k, v)
            rec["options"] = options(spec)
            # An action plugin reads options of its own before its module
            # runs (copy's decrypt, service's use): its documentation
            # lists them.
            for opt, o in options(d.get("options")).items():
                if opt not in rec["options"]:
                    o["doc_only"] = True
                    rec["options"][opt] = o
            for rule in ("mutually_exclusive", "required_one_of", "required_together", "required_if", "required_by"):
                if kw.get(rule):
                    rec[rule] = plain(kw[rule])
            rec["check_mode"] = bool(kw.get("supports_check_mode"))
        else:
            rec["source"] = "doc"
            rec["options"] = options(d.get("options"))
        out[name] = rec
    with open(os.path.join(HERE, "specs.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
