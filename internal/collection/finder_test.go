package collection

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type osFS struct{}

func (osFS) ReadFile(p string) ([]byte, error)       { return os.ReadFile(p) }
func (osFS) Stat(p string) (fs.FileInfo, error)      { return os.Stat(p) }
func (osFS) ReadDir(p string) ([]fs.DirEntry, error) { return os.ReadDir(p) }

// tree writes files (path → text) below dir.
func tree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseRef(t *testing.T) {
	for in, want := range map[string]string{
		"ns.coll.mod": "ns.coll||mod", "ns.coll.sub.dir.mod": "ns.coll|sub.dir|mod", "ns.coll": "", "mod": "",
		"ns.class.mod": "", "1ns.coll.mod": "", "ns.coll.mo-d": "", "ns.coll.": "", "ns..mod": "",
	} {
		r, ok := ParseRef(in, false)
		got := ""
		if ok {
			got = r.Collection + "|" + r.Subdirs + "|" + r.Resource
		}
		if got != want {
			t.Errorf("ParseRef(%q) = %q, want %q", in, got, want)
		}
	}
	if _, ok := ParseRef("ns.coll.sub.role", true); ok {
		t.Error("a role with subdirectories parsed")
	}
}

// TestFinderOrder checks Ansible's order: the first path holding a
// collection wins for all of it, even for a module only a later path
// has; the further paths are read only when the first miss.
func TestFinderOrder(t *testing.T) {
	a, b, sys := t.TempDir(), t.TempDir(), t.TempDir()
	tree(t, a, map[string]string{"ansible_collections/my/coll/plugins/modules/one.py": "#a"})
	tree(t, b, map[string]string{
		"ansible_collections/my/coll/plugins/modules/two.py":   "#b",
		"ansible_collections/other/coll/plugins/modules/x.py":  "#b",
		"ansible_collections/other/coll/plugins/modules/x.txt": "#ignored",
	})
	tree(t, sys, map[string]string{"ansible_collections/late/coll/roles/web/tasks/main.yml": "[]"})
	asked := 0
	f := New(osFS{}, Config{Paths: []string{a, filepath.Join(b, "ansible_collections"), "/nonexistent"},
		More: func() []string { asked++; return []string{sys} }})
	m, err := f.Module("my.coll.one")
	if err != nil || m.File != filepath.Join(a, "ansible_collections/my/coll/plugins/modules/one.py") {
		t.Errorf("my.coll.one: %+v %v", m, err)
	}
	if m, _ := f.Module("my.coll.two"); m.File != "" {
		t.Errorf("my.coll.two found in a later path: %s", m.File)
	}
	if m, _ := f.Module("other.coll.x"); m.File != filepath.Join(b, "ansible_collections/other/coll/plugins/modules/x.py") {
		t.Errorf("other.coll.x: %q", m.File)
	}
	if asked != 0 {
		t.Errorf("More asked %d times before a miss", asked)
	}
	dir, coll, ok := f.Role("web", []string{"ansible.builtin", "my.coll", "late.coll"})
	if !ok || coll != "late.coll" || dir != filepath.Join(sys, "ansible_collections/late/coll/roles/web") {
		t.Errorf("Role web: %q %q %v", dir, coll, ok)
	}
	if _, _, ok := f.Role("late.coll.web", nil); !ok {
		t.Error("Role late.coll.web not found")
	}
	if _, _, ok := f.Role("web", nil); ok {
		t.Error("an unqualified role found with no search list")
	}
	f.Roots()
	if asked != 1 {
		t.Errorf("More asked %d times, want 1", asked)
	}
	if got := f.Installed(); !slices.Equal(got, []string{"late.coll", "my.coll", "other.coll"}) {
		t.Errorf("Installed: %v", got)
	}
}

// TestModuleRouting follows meta/runtime.yml: redirects (also through
// ansible.builtin's routing), tombstones, loops, action plugins.
func TestModuleRouting(t *testing.T) {
	d := t.TempDir()
	tree(t, d, map[string]string{
		"ansible_collections/c/g/meta/runtime.yml": `plugin_routing:
  modules:
    system.ufw: {redirect: c.g.ufw}
    gone: {tombstone: {removal_version: 2.0.0, warning_text: Use c.g.new instead.}}
    ping: {redirect: c.g.pong}
    pong: {redirect: c.g.ping}
    bad: {redirect: notqualified}
    sync: {action_plugin: c.g.syncer}
`,
		"ansible_collections/c/g/plugins/modules/ufw.py":   "#",
		"ansible_collections/c/g/plugins/modules/sync.py":  "#",
		"ansible_collections/c/g/plugins/modules/mount.py": "#",
		"ansible_collections/c/g/plugins/action/syncer.py": "#",
		"ansible_collections/c/g/plugins/action/mount.py":  "#",
	})
	f := New(osFS{}, Config{Paths: []string{d}})
	m, err := f.Module("c.g.system.ufw")
	if err != nil || !slices.Equal(m.Chain, []string{"c.g.system.ufw", "c.g.ufw"}) || !strings.HasSuffix(m.File, "modules/ufw.py") {
		t.Errorf("c.g.system.ufw: %+v %v", m, err)
	}
	var removed *RemovedError
	if _, err := f.Module("c.g.gone"); !errors.As(err, &removed) || err.Error() != "c.g.gone has been removed. Use c.g.new instead." {
		t.Errorf("tombstone: %v", err)
	}
	if _, err := f.Module("c.g.ping"); err == nil || !strings.Contains(err.Error(), "c.g.ping -> c.g.pong -> c.g.ping") {
		t.Errorf("loop: %v", err)
	}
	if _, err := f.Module("c.g.bad"); err == nil || !strings.Contains(err.Error(), "Redirects must use fully qualified collection names") {
		t.Errorf("bad redirect: %v", err)
	}
	if m, _ := f.Module("c.g.sync"); !strings.HasSuffix(m.ActionPlugin, "action/syncer.py") {
		t.Errorf("routed action plugin: %+v", m)
	}
	if m, _ := f.Module("c.g.mount"); !strings.HasSuffix(m.ActionPlugin, "action/mount.py") {
		t.Errorf("action plugin of the module's name: %+v", m)
	}
	// ansible.builtin's own routing (routing.txt, from ansible-core 2.14).
	if m, err := f.Module("ansible.builtin.ufw"); err != nil || m.File != "" || m.Name() != "community.general.ufw" {
		t.Errorf("redirect to a collection not installed: %+v %v", m, err)
	}
	if _, err := f.Module("ansible.legacy.bigip_facts"); err == nil || err.Error() != "ansible.legacy.bigip_facts has been removed." {
		t.Errorf("a builtin tombstone: %v", err)
	}
	if to, ok := BuiltinRedirect("filter", "json_query"); !ok || to != "community.general.json_query" {
		t.Errorf("BuiltinRedirect json_query: %q %v", to, ok)
	}
	if m, _ := f.Module("ansible.builtin.copy"); m.File != "" || len(m.Chain) != 1 {
		t.Errorf("a builtin module with no routing: %+v", m)
	}
}

// TestPack packs a module with what it imports, absolutely and
// relatively, from its own collection and another, with the packages'
// __init__.py, and leaves out what it does not import.
func TestPack(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	tree(t, a, map[string]string{
		"ansible_collections/c/g/plugins/modules/sub/m.py": `from ansible.module_utils.basic import AnsibleModule
from ...module_utils.helper import (
    one,  # a comment
    two,
)
from ansible_collections.c.g.plugins.module_utils import pkgmod
import ansible_collections.o.u.plugins.module_utils.net as net
`,
		"ansible_collections/c/g/plugins/module_utils/helper.py":     "from .deep.inner import x\n",
		"ansible_collections/c/g/plugins/module_utils/deep/inner.py": "x = 1\n",
		"ansible_collections/c/g/plugins/module_utils/pkgmod.py":     "y = 2\n",
		"ansible_collections/c/g/plugins/module_utils/unused.py":     "z = 3\n",
		"ansible_collections/c/g/plugins/module_utils/__init__.py":   "# utils\n",
	})
	tree(t, b, map[string]string{"ansible_collections/o/u/plugins/module_utils/net.py": "n = 4\n"})
	p, err := Pack(osFS{}, filepath.Join(a, "ansible_collections/c/g/plugins/modules/sub/m.py"), []string{filepath.Join(b, "ansible_collections")})
	if err != nil {
		t.Fatal(err)
	}
	if p.Import != "ansible_collections.c.g.plugins.modules.sub.m" || !strings.HasPrefix(p.Name, "tender-collection-") {
		t.Errorf("Import %q Name %q", p.Import, p.Name)
	}
	zr, err := zip.NewReader(bytes.NewReader(p.Zip), int64(len(p.Zip)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	body := map[string]string{}
	for _, f := range zr.File {
		names = append(names, f.Name)
		r, _ := f.Open()
		b, _ := io.ReadAll(r)
		body[f.Name] = string(b)
	}
	want := []string{
		"ansible_collections/__init__.py",
		"ansible_collections/c/__init__.py",
		"ansible_collections/c/g/__init__.py",
		"ansible_collections/c/g/plugins/__init__.py",
		"ansible_collections/c/g/plugins/module_utils/__init__.py",
		"ansible_collections/c/g/plugins/module_utils/deep/__init__.py",
		"ansible_collections/c/g/plugins/module_utils/deep/inner.py",
		"ansible_collections/c/g/plugins/module_utils/helper.py",
		"ansible_collections/c/g/plugins/module_utils/pkgmod.py",
		"ansible_collections/c/g/plugins/modules/__init__.py",
		"ansible_collections/c/g/plugins/modules/sub/__init__.py",
		"ansible_collections/c/g/plugins/modules/sub/m.py",
		"ansible_collections/o/__init__.py",
		"ansible_collections/o/u/__init__.py",
		"ansible_collections/o/u/plugins/__init__.py",
		"ansible_collections/o/u/plugins/module_utils/__init__.py",
		"ansible_collections/o/u/plugins/module_utils/net.py",
	}
	if !slices.Equal(names, want) {
		t.Errorf("packed:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	if body["ansible_collections/c/g/plugins/module_utils/__init__.py"] != "# utils\n" {
		t.Error("the collection's own __init__.py was not packed")
	}
	again, _ := Pack(osFS{}, filepath.Join(a, "ansible_collections/c/g/plugins/modules/sub/m.py"), []string{filepath.Join(b, "ansible_collections")})
	if again.Name != p.Name {
		t.Error("the same module packed twice has two names")
	}
	if _, err := Pack(osFS{}, filepath.Join(b, "m.py"), nil); err == nil {
		t.Error("a module outside any collection packed")
	}
}

// TestActionGroup lists a group's modules as module_defaults applies
// them: short names in the collection's, extend_group followed (loops
// stopped), ansible.builtin's groups extending collections'.
func TestActionGroup(t *testing.T) {
	d := t.TempDir()
	tree(t, d, map[string]string{
		"ansible_collections/c/g/meta/runtime.yml": `action_groups:
  web: [nginx, other.coll.proxy, {metadata: {extend_group: [c.g.base, missing.coll.x]}}]
  base: [ping_it, {metadata: {extend_group: web}}]
`,
		"ansible_collections/amazon/aws/meta/runtime.yml": "action_groups:\n  aws: [ec2_instance]\n",
	})
	f := New(osFS{}, Config{Paths: []string{d}})
	if got := f.ActionGroup("c.g.web"); !slices.Equal(got, []string{"c.g.nginx", "other.coll.proxy", "c.g.ping_it"}) {
		t.Errorf("c.g.web: %v", got)
	}
	if got := f.ActionGroup("aws"); !slices.Equal(got, []string{"amazon.aws.ec2_instance"}) {
		t.Errorf("aws: %v", got)
	}
	if got := f.ActionGroup("c.g.nosuch"); len(got) != 0 {
		t.Errorf("a group no one defines: %v", got)
	}
}
