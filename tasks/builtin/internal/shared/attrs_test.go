package shared

import (
	"reflect"
	"testing"
)

// TestInfoDataSecontext checks that a path's SELinux context, when
// _t_info printed one (SELinux on), is in the result as Ansible's
// add_path_info puts it, and absent otherwise.
func TestInfoDataSecontext(t *testing.T) {
	v := Verdict{"pi_mode": "644", "pi_uid": "0", "pi_gid": "0", "pi_owner": "root", "pi_group": "root", "pi_size": "3",
		"pi_nlink": "1", "pi_ftype": "regular file", "pi_secontext": "system_u:object_r:etc_t:s0"}
	data := map[string]any{}
	InfoData(data, v, "pi_")
	if data["secontext"] != "system_u:object_r:etc_t:s0" || data["state"] != "file" {
		t.Errorf("InfoData = %v", data)
	}
	delete(v, "pi_secontext")
	data = map[string]any{}
	InfoData(data, v, "pi_")
	if _, ok := data["secontext"]; ok {
		t.Errorf("without SELinux: %v", data)
	}
}

// TestAttrDiffSecontext checks a context change in a diff: the lists of
// parts Python's libselinux gives, an MLS range kept whole.
func TestAttrDiffSecontext(t *testing.T) {
	before, after := map[string]any{}, map[string]any{}
	AttrDiff(Verdict{"secontext_changed": "1", "before_secontext": "unconfined_u:object_r:etc_t:s0-s0:c0.c1023",
		"after_secontext": "system_u:object_r:tmp_t:s0"}, before, after)
	if want := []any{"unconfined_u", "object_r", "etc_t", "s0-s0:c0.c1023"}; !reflect.DeepEqual(before["secontext"], want) {
		t.Errorf("before = %v", before)
	}
	if want := []any{"system_u", "object_r", "tmp_t", "s0"}; !reflect.DeepEqual(after["secontext"], want) {
		t.Errorf("after = %v", after)
	}
	if !AttrsChanged(Verdict{"secontext_changed": "1"}) {
		t.Error("a context change is an attribute change")
	}
}
