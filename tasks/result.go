package tasks

import "github.com/tender-sh/tender/playbooks/expr"

// ResultOf reads a result as Ansible's module protocol returns it (a
// module's JSON object, an action plugin's dict): changed, failed,
// skipped, msg, rc, stdout, stderr and warnings read from it, the whole
// of it kept as what register stores. With rcFails a result that does not
// say failed fails on a non-zero rc, as Ansible decides for a module's; an
// action plugin's fails only when it says so.
func ResultOf(data map[string]any, rcFails bool) Result {
	if data == nil {
		data = map[string]any{}
	}
	r := Result{Data: data, Changed: expr.Truthy(data["changed"]), Failed: expr.Truthy(data["failed"]),
		Skipped: expr.Truthy(data["skipped"])}
	if _, said := data["failed"]; !said && rcFails {
		rc, has := data["rc"]
		r.Failed = has && rc != 0 && rc != "0"
	}
	if msg, ok := data["msg"].(string); ok {
		r.Msg = msg
	}
	if rc, ok := data["rc"].(int); ok {
		r.RC = rc
	}
	if s, ok := data["stdout"].(string); ok {
		r.Stdout = s
	}
	if s, ok := data["stderr"].(string); ok {
		r.Stderr = s
	}
	if w, ok := data["warnings"].([]any); ok {
		for _, x := range w {
			r.Warnings = append(r.Warnings, expr.Str(x))
		}
	}
	return r
}

// ShowDiff renders the diff the result's data holds into r.Diff, as
// Ansible's callback shows it: when the task asked for diffs and
// something changed.
func (r *Result) ShowDiff(asked bool) {
	if d := r.Data["diff"]; asked && r.Changed && expr.Truthy(d) {
		r.Diff = RenderDiff(d)
	}
}
