
command -v sysctl >/dev/null 2>&1 || { echo 'fail=Failed to find required executable "sysctl" in paths: '"$PATH"; exit 0; }
echo "f=$f"
_v=$(LANG=C LC_ALL=C sysctl -e -n "$name" 2>/dev/null; echo "rc=$?")
case ${_v##*rc=} in 0) printf 'proc=%s\n' "$(printf '%s' "${_v%rc=*}" | tr '\n' ' ')" ;; esac
