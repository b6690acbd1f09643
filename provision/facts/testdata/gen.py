#!/usr/bin/python3
"""Records the distribution facts ansible-core computes for each fixture root
under distros/ (a directory holding the distribution's /etc files).

Ansible's own fact code runs unchanged; only its file reads are pointed at
the fixture root instead of /. Run by hand with Debian's ansible-core
installed: python3 provision/facts/testdata/gen.py > provision/facts/testdata/distros.json
"""
import json
import os
import platform
import sys

# Ansible uses the host's own python3-distro when one is installed and its
# bundled copy (1.6) otherwise; minimal hosts have none, so record with the
# bundled copy. (With python3-distro >= 1.7 on the host, Debian's version
# would read /etc/debian_version: 12.5 instead of 12.)
import importlib.util

import ansible.module_utils as _mu

_spec = importlib.util.spec_from_file_location(
    "bundled_distro", os.path.join(os.path.dirname(_mu.__file__), "distro", "_distro.py"))
distro_pkg = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(distro_pkg)
from ansible.module_utils.common import sys_info
from ansible.module_utils.facts import utils
from ansible.module_utils.facts.system import distribution as dist

here = os.path.dirname(os.path.abspath(__file__))
root = None


def rooted(path):
    return os.path.join(root, path.lstrip("/"))


real_get_file_content = utils.get_file_content
real_get_file_lines = utils.get_file_lines
real_exists = os.path.exists


def get_file_content(path, default=None, strip=True):
    return real_get_file_content(rooted(path), default, strip)


def get_file_lines(path, strip=True, line_sep=None):
    return real_get_file_lines(rooted(path), strip, line_sep)


def file_exists(path, allow_empty=False):
    p = rooted(path)
    if not real_exists(p):
        return False
    return allow_empty or os.path.getsize(p) > 0


class Module:
    def get_bin_path(self, *a, **k):
        return None

    def run_command(self, *a, **k):
        return 1, "", ""


dist.get_file_content = get_file_content
dist.get_file_lines = get_file_lines
dist._file_exists = file_exists
platform.system = lambda: "Linux"

out = {}
for name in sorted(os.listdir(os.path.join(here, "distros"))):
    root = os.path.join(here, "distros", name)
    d = distro_pkg.LinuxDistribution(include_lsb=False, include_uname=False,
                                     root_dir=root)
    sys_info.distro.id = d.id
    sys_info.distro.version = d.version
    sys_info.distro.codename = d.codename
    sys_info.distro.os_release_info = d.os_release_info
    sys_info.distro.lsb_release_info = d.lsb_release_info
    sys_info.distro.name = d.name
    facts = dist.Distribution(Module()).get_distribution_facts()
    keep = ("distribution", "distribution_version", "distribution_major_version",
            "distribution_minor_version", "distribution_release", "os_family",
            "distribution_file_path", "distribution_file_variety", "distribution_file_parsed",
            "distribution_file_search_string")
    out[name] = {k: facts[k] for k in keep if k in facts}
json.dump(out, sys.stdout, indent=2, sort_keys=True)
print()
