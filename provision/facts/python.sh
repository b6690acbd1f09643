# pyfast P prints P's Python facts as the interpreter would (below) from
# one `P -V` and the files of its installation, where those tell it all: a
# CPython release (X.Y.Z) that is the regular file binX.Y of its bin
# directory, outside a virtual environment, whose standard library and
# lib-dynload are under the prefix that directory implies, with _ssl and
# _ctypes as extension modules there and libselinux.so.1 where the dynamic
# linker finds it for that platform. A program instead of an interpreter's
# start: a fifth of fact gathering's cost to the host. Anything else (a
# venv, a pre-release, PyPy, _ssl built in, libselinux elsewhere or not at
# all) prints nothing and is false: then the interpreter is asked.
pyfast() {
	case $1 in /*) x=$1 ;; *) x=$(command -v "$1") || return 1 ;; esac
	case $x in /*/bin/* | /bin/*) ;; *) return 1 ;; esac
	case $x in *//* | */./* | */../* | */. | */..) return 1 ;; esac
	d=${x%/*} pre=${x%/bin/*}
	[ -e "$d/pyvenv.cfg" ] || [ -e "$pre/pyvenv.cfg" ] || [ -e "$d/pybuilddir.txt" ] || [ -e "$d/lib" ] && return 1
	ver=$("$x" -V 2>/dev/null </dev/null) || return 1
	case $ver in "Python 3."[0-9]*.[0-9]*) ver=${ver#Python } ;; *) return 1 ;; esac
	maj=${ver%%.*} min=${ver#*.} mic=${ver#*.*.}
	min=${min%%.*}
	for k in "$maj" "$min" "$mic"; do case $k in '' | *[!0-9]*) return 1 ;; esac; done
	[ "$maj.$min.$mic" = "$ver" ] || return 1
	for k in "$d"/python*._pth; do [ -e "$k" ] && return 1; done
	k=$d/python$maj.$min
	# shellcheck disable=SC3013 # -ef: dash, bash and busybox have it
	[ -f "$k" ] && ! [ -L "$k" ] && [ "$x" -ef "$k" ] || return 1
	lib=
	for k in "$pre/lib/python$maj.$min" "$pre/lib64/python$maj.$min"; do
		[ -f "$k/os.py" ] || [ -f "$k/os.pyc" ] || continue
		[ -z "$lib" ] || return 1
		lib=$k
	done
	[ -n "$lib" ] || return 1
	k=
	for k in "$lib/lib-dynload/_ssl.cpython-$maj$min"-*.so; do [ -f "$k" ] && break; k=; done
	[ -n "$k" ] || return 1
	trip=${k##*/_ssl.cpython-"$maj$min"-} && trip=${trip%.so}
	[ -f "$lib/lib-dynload/_ctypes.cpython-$maj$min-$trip.so" ] && [ -f "$lib/ctypes/__init__.py" ] || return 1
	se=
	for k in "/lib/$trip" "/usr/lib/$trip"; do [ -e "$k/libselinux.so.1" ] && se=True; done
	case $trip in x86_64-* | aarch64-* | powerpc64le-* | s390x-* | riscv64-*)
		for k in /lib64 /usr/lib64; do [ -e "$k/libselinux.so.1" ] && se=True; done ;;
	esac
	[ -n "$se" ] || return 1
	printf 'v|python_executable|%s\nv|python_version_info|%s %s %s final 0\nv|python_type|cpython\n' "$x" "$maj" "$min" "$mic"
	printf 'v|python_sslcontext|True\nv|python_selinux|True\n'
}

# The Python a module would run with (Ansible's python facts come from the
# interpreter running setup): the first of the names Ansible's discovery
# tries that exists, told by pyfast or asked in isolated mode what it is.
for p in /usr/bin/python3 /usr/libexec/platform-python /usr/bin/python /usr/local/bin/python3 python3 python; do
	if command -v "$p" >/dev/null 2>&1; then
		pyfast "$p" && break
		# -S and no import of ssl (which loads libssl): a third of the
		# cost. Every Python 3 ssl module has SSLContext; is _ssl there?
		"$p" -I -S -c 'import sys
v = sys.version_info
print("v|python_executable|" + sys.executable)
print("v|python_version_info|%d %d %d %s %d" % (v[0], v[1], v[2], v[3], v[4]))
print("v|python_type|" + sys.implementation.name)
from importlib.machinery import PathFinder
ssl = "_ssl" in sys.builtin_module_names or PathFinder.find_spec("_ssl") is not None
print("v|python_sslcontext|%s" % ssl)
try:
    import ctypes
    lib = ctypes.CDLL("libselinux.so.1")
    need = "is_selinux_enabled is_selinux_mls_enabled lgetfilecon_raw matchpathcon security_policyvers"
    need += " selinux_getenforcemode security_getenforce lsetfilecon selinux_getpolicytype"
    print("v|python_selinux|%s" % all(hasattr(lib, n) for n in need.split()))
except Exception:
    print("v|python_selinux|False")' </dev/null 2>/dev/null
		break
	fi
done
exit 0
