package playbooks

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden and testdata/broken")

// TestGolden loads every playbook of testdata/golden, compares a dump of
// the parsed structure with parsed.golden, and compares the task listing
// with what ansible-playbook --list-tasks printed (ansible-list-tasks.txt,
// recorded by gen-ansible.sh).
func TestGolden(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/golden/*/site.yml")
	if len(dirs) < 10 {
		t.Fatalf("only %d golden playbooks", len(dirs))
	}
	for _, path := range dirs {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var pb *Playbook
			var err error
			if _, e := os.Stat(filepath.Join(dir, "TASKLIST")); e == nil {
				pb, err = LoadTasks(path, "all", Options{Modules: testModules})
			} else {
				pb, err = Load(path, Options{Modules: testModules})
			}
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(dir, "parsed.golden"), dump(pb))

			want, err := os.ReadFile(filepath.Join(dir, "ansible-list-tasks.txt"))
			if err != nil {
				t.Skip("no recorded ansible-playbook output")
			}
			// Templated hosts patterns are the caller's to render (with
			// playbooks/expr); here the one fixture that has one gets the
			// value ansible-playbook printed.
			render := func(h string) string {
				return strings.ReplaceAll(h, "{{ host | default('all') }}", "all")
			}
			got := strings.Replace(pb.FormatListTasks(render), "playbook: "+path, "playbook: site.yml", 1)
			if got != sortPlayTags(string(want)) {
				t.Errorf("--list-tasks differs from ansible-playbook's\n--- tender\n%s\n--- ansible\n%s", got, want)
			}
		})
	}
}

// sortPlayTags sorts the tags of each "play #N" line: ansible-playbook
// prints them in Python set order.
func sortPlayTags(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "  play #") {
			continue
		}
		j := strings.LastIndex(l, "TAGS: [")
		if j < 0 || !strings.HasSuffix(l, "]") {
			continue
		}
		tags := strings.Split(l[j+7:len(l)-1], ",")
		if tags[0] == "" {
			continue
		}
		lines[i] = l[:j+7] + strings.Join(mergeTags(tags), ",") + "]"
	}
	return strings.Join(lines, "\n")
}

func compareGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", file, diffLines(string(want), got))
	}
}

// diffLines shows the first differing lines.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return ""
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// dump renders a playbook as stable, indented JSON: zero fields left out,
// positions as file:line:col, a task's Role as the role's name, Parent
// links left out.
func dump(pb *Playbook) string {
	b, err := json.MarshalIndent(tree(reflect.ValueOf(pb)), "", "  ")
	if err != nil {
		panic(err)
	}
	out := string(b)
	if wd, err := os.Getwd(); err == nil {
		out = strings.ReplaceAll(out, wd+string(filepath.Separator), "") // Role.Path is absolute
	}
	return filepath.ToSlash(out) + "\n"
}

func tree(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return tree(v.Elem())
	case reflect.Struct:
		switch x := v.Interface().(type) {
		case Pos:
			return x.String()
		case Bool:
			if x.Expr != "" {
				return x.Expr
			}
			return x.Value
		}
		out := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			f, fv := v.Type().Field(i), v.Field(i)
			if fv.IsZero() || f.Name == "Parent" || !f.IsExported() {
				continue
			}
			if f.Type.Kind() == reflect.Slice && fv.Len() == 0 {
				continue
			}
			if f.Anonymous {
				for k, x := range tree(fv).(map[string]any) {
					out[k] = x
				}
				continue
			}
			if f.Name == "Role" && f.Type == reflect.TypeOf((*Role)(nil)) {
				out[f.Name] = fv.Interface().(*Role).Name
				continue
			}
			if f.Name == "Kind" {
				out[f.Name] = fv.Interface().(Kind).String()
				continue
			}
			out[f.Name] = tree(fv)
		}
		return out
	case reflect.Slice:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = tree(v.Index(i))
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		for _, k := range v.MapKeys() {
			out[k.String()] = tree(v.MapIndex(k))
		}
		return out
	default:
		return v.Interface()
	}
}
