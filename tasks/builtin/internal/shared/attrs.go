package shared

import (
	_ "embed"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// AttrFuncs are the sh helpers copy and file share to inspect a path and
// bring its mode, owner and group to what was asked. They read $_t_check
// (non-empty: change nothing) and set $_t_changed when something differs.
// Every message they print is one key=value line.
//
//go:embed attr_funcs.sh
var AttrFuncs string

// AttrAssign sets the shell variables _t_attrs reads beside mode, owner
// and group: the SELinux context (_t_se, from seuser, serole, setype and
// selevel) and the chattr flags (_t_chattr, from attributes).
func AttrAssign(a tasks.Values) string {
	var s strings.Builder
	for _, k := range []string{"seuser", "serole", "setype", "selevel", "attributes"} {
		fmt.Fprintf(&s, "_t_%s=%s\n", k, Q(a.Str(k)))
	}
	return s.String()
}

// ModeArg turns a mode parameter into what _t_attrs takes: an octal
// string, a symbolic mode, or "" when absent. An int is the mode's value
// (YAML's 0644 is 420), as in Ansible.
func ModeArg(v any) (string, error) {
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

// InfoData fills data with the path's attributes from a verdict made by
// _t_info (keys prefixed by prefix), as Ansible's file results show them.
func InfoData(data map[string]any, v Verdict, prefix string) {
	if v[prefix+"ftype"] == "" {
		return
	}
	data["mode"] = octal4(v[prefix+"mode"])
	data["uid"] = Atoi(v[prefix+"uid"])
	data["gid"] = Atoi(v[prefix+"gid"])
	data["owner"] = NameOr(v[prefix+"owner"], v[prefix+"uid"])
	data["group"] = NameOr(v[prefix+"group"], v[prefix+"gid"])
	data["size"] = Atoi(v[prefix+"size"])
	data["state"] = fileState(v[prefix+"ftype"])
	if data["state"] == "file" && Atoi(v[prefix+"nlink"]) > 1 {
		data["state"] = "hard"
	}
	if c := v[prefix+"secontext"]; c != "" {
		data["secontext"] = c
	}
}

// seParts splits an SELinux context into user, role, type and level
// (the level keeps its own colons), as Python's libselinux gives it.
func seParts(ctx string) []any {
	parts := strings.SplitN(ctx, ":", 4)
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// Atoi reads a decimal integer, ignoring surrounding space; anything else is 0.
func Atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

// AttrParams are the parameters every file-handling module accepts.
var AttrParams = []tasks.Param{
	{Name: "mode", Kind: tasks.Raw},
	{Name: "owner"},
	{Name: "group"},
	{Name: "seuser"}, {Name: "serole"}, {Name: "setype"}, {Name: "selevel"},
	{Name: "unsafe_writes", Kind: tasks.Bool, Default: false},
	{Name: "attributes", Aliases: []string{"attr"}},
}

// NameOr is a user or group name from stat, or the id when the host has
// no name for it (stat prints UNKNOWN; Ansible prints the number).
func NameOr(name, id string) string {
	if name == "" || name == "UNKNOWN" {
		return id
	}
	return name
}

// AttrDiff adds the mode, owner, group and SELinux context changes
// _t_attrs printed to a diff's before and after, as Ansible's file diffs
// show them (a context as the list of its parts).
func AttrDiff(v Verdict, before, after map[string]any) {
	if v["secontext_changed"] == "1" {
		before["secontext"], after["secontext"] = seParts(v["before_secontext"]), seParts(v["after_secontext"])
	}
	if v["attributes_changed"] == "1" {
		before["attributes"], after["attributes"] = v["before_attributes"], v["after_attributes"]
	}
	if v["before_mode"] != "" {
		before["mode"], after["mode"] = octal4(v["before_mode"]), octal4(v["after_mode"])
	}
	for _, k := range []string{"owner", "group"} {
		if b := v["before_"+k]; b != "" {
			before[k] = Atoi(b)
			if a := v["after_"+k]; a != "" {
				after[k] = Atoi(a)
			}
		}
	}
}

// FailDetails adds to data the details of a failure _t_fail printed
// (chattr's error, as Ansible's "chattr failed" has them), and returns it.
func FailDetails(v Verdict, data map[string]any) map[string]any {
	if d := strings.TrimSpace(v["details"]); d != "" {
		data["details"] = d
	}
	return data
}
