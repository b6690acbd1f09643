#!/usr/bin/env python3
"""Builds the fleet's Python wheels, for pip tasks on hosts without internet.

    wheels.py OUT

writes into OUT, a pip find-links directory (aptrepo.sh puts it at
/srv/tender-apt/wheels on the hosts):

    tender_greet-1.0-py3-none-any.whl   module tender_greet, __version__ "1.0"
    tender_greet-2.0-py3-none-any.whl   the same at "2.0" (pinning, latest)
    tender_extra-1.0-py3-none-any.whl   module tender_extra, needs
                                        tender-greet>=1.0 (a dependency)

A wheel is a zip of the package's files and NAME-VERSION.dist-info/ with
METADATA, WHEEL and RECORD (each file's sha256 and size). Entries are
written in a fixed order with a fixed time, so the same script makes the
same bytes. Only the standard library is used (no setuptools, no pip).
"""

import base64
import hashlib
import os
import sys
import zipfile

STAMP = (2023, 11, 14, 22, 13, 20)

WHEELS = [
    ("tender-greet", "1.0", [], "Greets, version 1.0."),
    ("tender-greet", "2.0", [], "Greets, version 2.0."),
    ("tender-extra", "1.0", ["tender-greet>=1.0"], "Needs tender-greet."),
]


def digest(data):
    h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + h.decode()


def build(out, name, version, requires, summary):
    mod = name.replace("-", "_")
    info = "%s-%s.dist-info" % (mod, version)
    meta = "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n" % (name, version, summary)
    meta += "".join("Requires-Dist: %s\n" % r for r in requires)
    files = [
        (mod + "/__init__.py", '"""tender e2e test package."""\n__version__ = "%s"\n' % version),
        (info + "/METADATA", meta),
        (info + "/WHEEL", "Wheel-Version: 1.0\nGenerator: tender-e2e\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
    ]
    record = "".join("%s,%s,%d\n" % (p, digest(b.encode()), len(b.encode())) for p, b in files)
    files.append((info + "/RECORD", record + info + "/RECORD,,\n"))
    path = os.path.join(out, "%s-%s-py3-none-any.whl" % (mod, version))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for p, body in files:
            zi = zipfile.ZipInfo(p, STAMP)
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, body)
    return path


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wheels.py OUT")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for w in WHEELS:
        build(out, *w)


if __name__ == "__main__":
    main()
