package builtin

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// attrFuncs are the sh helpers copy and file share to inspect a path and
// bring its mode, owner and group to what was asked. They read $_t_check
// (non-empty: change nothing) and set $_t_changed when something differs.
// Every message they print is one key=value line.
const attrFuncs = `
_t_fail() {
	echo "failed=1"; printf 'msg=%s\n' "$*" | tr '\n' ' '; echo
	if [ -n "$_t_failpath" ]; then echo "failpath=$_t_failpath"; _t_info "$_t_failpath"; fi
	# a path the task itself created is removed again when it fails
	[ -z "$_t_rmonfail" ] || rm -f -- "$_t_rmonfail"
	exit 0
}
_t_info() { # key=value lines describing $1 (without following a link)
	stat -c 'mode=%a
uid=%u
gid=%g
owner=%U
group=%G
size=%s
nlink=%h
ftype=%F' -- "$1" 2>/dev/null
}
_t_wantmode() { # the octal mode $2 (octal or symbolic) gives the path $1
	case $2 in
	*[!0-7]*)
		_wd=$(mktemp -d) || return 1
		if [ -d "$1" ]; then _wf=$_wd/d; mkdir "$_wf"; else _wf=$_wd/f; : >"$_wf"; fi
		chmod "$(stat -c %a "$1")" "$_wf" && chmod "$2" "$_wf" 2>/dev/null && stat -c %a "$_wf"
		_wr=$?; rm -rf "$_wd"; return $_wr ;;
	*) echo "$2" ;;
	esac
}
_t_se() { # path: its SELinux context to $_t_seuser:$_t_serole:$_t_setype:$_t_selevel
	[ -n "$_t_seuser$_t_serole$_t_setype$_t_selevel" ] || return 0
	# Where SELinux is off or absent the parameters are ignored, as Ansible does.
	command -v selinuxenabled >/dev/null 2>&1 && selinuxenabled || return 0
	_t_ctx=$(stat -c %C -- "$1" 2>/dev/null) || return 0
	_cu=${_t_ctx%%:*}; _cr=${_t_ctx#*:}; _ct=${_cr#*:}; _cr=${_cr%%:*}; _cl=${_ct#*:}; _ct=${_ct%%:*}
	_t_cargs=
	for _w in "u|$_t_seuser|$_cu" "r|$_t_serole|$_cr" "t|$_t_setype|$_ct" "l|$_t_selevel|$_cl"; do
		_f=${_w%%|*}; _r=${_w#*|}; _v=${_r%%|*}; _h=${_r#*|}
		[ -n "$_v" ] && [ "$_v" != _default ] && [ "$_v" != "$_h" ] && _t_cargs="$_t_cargs -$_f $_v"
	done
	[ -n "$_t_cargs" ] || return 0
	_t_changed=1; echo "secontext_changed=1"; echo "before_secontext=$_t_ctx"
	[ -n "$_t_check" ] || chcon -h $_t_cargs -- "$1" || _t_fail "chcon failed: cannot set the SELinux context of $1"
}
_t_attrs() { # path mode owner group: fix what differs (and the SELinux context)
	_t_se "$1"
	[ -n "$2$3$4" ] || return 0
	_t_failpath=$1
	# one stat: mode, owner name and id, group name and id
	_t_ifs=$IFS; IFS=' '
	set -- "$1" "$2" "$3" "$4" $(stat -c '%a %U %u %G %g' -- "$1")
	IFS=$_t_ifs
	if [ -n "$3" ] && [ "$3" != "$6" ] && [ "$3" != "$7" ]; then
		_t_changed=1; echo "owner_changed=1"; echo "before_owner=$7"
		case $3 in *[!0-9]*) echo "after_owner=$(id -u -- "$3" 2>/dev/null)" ;; *) echo "after_owner=$3" ;; esac
		[ -n "$_t_check" ] || chown -h -- "$3" "$1" 2>/dev/null || {
			id -u -- "$3" >/dev/null 2>&1 || _t_fail "chown failed: failed to look up user $3"
			_t_fail "chown failed: [Errno 1] Operation not permitted: b'$1'"
		}
	fi
	if [ -n "$4" ] && [ "$4" != "$8" ] && [ "$4" != "$9" ]; then
		_t_changed=1; echo "group_changed=1"; echo "before_group=$9"
		case $4 in *[!0-9]*) echo "after_group=$(awk -F: -v g="$4" '$1 == g { print $3; exit }' /etc/group)" ;; *) echo "after_group=$4" ;; esac
		[ -n "$_t_check" ] || chgrp -h -- "$4" "$1" 2>/dev/null || {
			getent group "$4" >/dev/null 2>&1 || _t_fail "chgrp failed: failed to look up group $4"
			_t_fail "chgrp failed: [Errno 1] Operation not permitted: b'$1'"
		}
	fi
	if [ -n "$2" ] && [ ! -L "$1" ]; then
		case $2 in
		*[!0-7]*) _wm=$(_t_wantmode "$1" "$2") || _t_fail "mode must be in octal or symbolic form" ;;
		*) _wm=$2 ;;
		esac
		if [ $((0$5)) -ne $((0$_wm)) ]; then
			_t_changed=1; echo "before_mode=$5"; echo "after_mode=$_wm"
			[ -n "$_t_check" ] || chmod "$_wm" "$1" || _t_fail "chmod failed"
		fi
	fi
	_t_failpath=
}
`

// seAssign sets the shell variables _t_se reads from the seuser, serole,
// setype and selevel parameters.
func seAssign(a tasks.Values) string {
	var s strings.Builder
	for _, k := range []string{"seuser", "serole", "setype", "selevel"} {
		fmt.Fprintf(&s, "_t_%s=%s\n", k, q(a.Str(k)))
	}
	return s.String()
}

// modeArg turns a mode parameter into what _t_attrs takes: an octal
// string, a symbolic mode, or "" when absent. An int is the mode's value
// (YAML's 0644 is 420), as in Ansible.
func modeArg(v any) (string, error) {
	switch m := v.(type) {
	case nil:
		return "", nil
	case int:
		return strconv.FormatInt(int64(m), 8), nil
	case int64:
		return strconv.FormatInt(m, 8), nil
	case *big.Int:
		return "", fmt.Errorf("mode %s is out of range", m)
	case float64:
		return strconv.FormatInt(int64(m), 8), nil
	case string:
		if m == "" {
			return "", nil
		}
		if strings.Trim(m, "01234567") == "" {
			return m, nil
		}
		for _, c := range m {
			if !strings.ContainsRune("ugoa+-=rwxXstugo,", c) {
				return "", fmt.Errorf("mode must be in octal or symbolic form")
			}
		}
		return m, nil
	}
	return "", fmt.Errorf("argument 'mode' is of type %T and we were unable to convert to raw", v)
}

// octal4 formats an octal string from stat -c %a as Ansible's file
// results do ('0%03o'): "0644", and "01444" with a special bit.
func octal4(s string) string {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 8, 32)
	if err != nil {
		return s
	}
	return fmt.Sprintf("0%03o", n)
}

// fileState names an stat %F file type as Ansible's file state.
func fileState(ftype string) string {
	switch {
	case ftype == "":
		return "absent"
	case strings.Contains(ftype, "directory"):
		return "directory"
	case strings.Contains(ftype, "symbolic link"):
		return "link"
	case strings.Contains(ftype, "regular"):
		return "file"
	}
	return ftype
}

// infoData fills data with the path's attributes from a verdict made by
// _t_info (keys prefixed by prefix), as Ansible's file results show them.
func infoData(data map[string]any, v verdict, prefix string) {
	if v[prefix+"ftype"] == "" {
		return
	}
	data["mode"] = octal4(v[prefix+"mode"])
	data["uid"] = atoi(v[prefix+"uid"])
	data["gid"] = atoi(v[prefix+"gid"])
	data["owner"] = nameOr(v[prefix+"owner"], v[prefix+"uid"])
	data["group"] = nameOr(v[prefix+"group"], v[prefix+"gid"])
	data["size"] = atoi(v[prefix+"size"])
	data["state"] = fileState(v[prefix+"ftype"])
	if data["state"] == "file" && atoi(v[prefix+"nlink"]) > 1 {
		data["state"] = "hard"
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

// attrParams are the parameters every file-handling module accepts.
var attrParams = []tasks.Param{
	{Name: "mode", Kind: tasks.Raw},
	{Name: "owner"},
	{Name: "group"},
	{Name: "seuser"}, {Name: "serole"}, {Name: "setype"}, {Name: "selevel"},
	{Name: "unsafe_writes", Kind: tasks.Bool, Default: false},
	{Name: "attributes", Aliases: []string{"attr"}},
}

// nameOr is a user or group name from stat, or the id when the host has
// no name for it (stat prints UNKNOWN; Ansible prints the number).
func nameOr(name, id string) string {
	if name == "" || name == "UNKNOWN" {
		return id
	}
	return name
}

// attrDiff adds the mode, owner and group changes _t_attrs printed to a
// diff's before and after, as Ansible's file diffs show them.
func attrDiff(v verdict, before, after map[string]any) {
	if v["before_mode"] != "" {
		before["mode"], after["mode"] = octal4(v["before_mode"]), octal4(v["after_mode"])
	}
	for _, k := range []string{"owner", "group"} {
		if b := v["before_"+k]; b != "" {
			before[k] = atoi(b)
			if a := v["after_"+k]; a != "" {
				after[k] = atoi(a)
			}
		}
	}
}
