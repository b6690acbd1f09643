package builtin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// benchModule runs one module repeatedly on the local transport; what
// it measures is mostly the host's sh and tools, per task.
func benchModule(b *testing.B, name string, args tasks.Args) {
	env, _ := modtest.TestEnv(b, b.TempDir(), nil)
	f, _ := Registry().Lookup(name)
	m := f()
	if _, err := m.Run(context.Background(), env, args); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Run(context.Background(), env, args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCopyUnchanged(b *testing.B) {
	dir := b.TempDir()
	benchModule(b, "copy", tasks.Args{"content": "hello\n", "dest": filepath.Join(dir, "f"), "mode": "0644"})
}

func BenchmarkFileUnchanged(b *testing.B) {
	dir := b.TempDir()
	benchModule(b, "file", tasks.Args{"path": filepath.Join(dir, "d"), "state": "directory", "mode": "0755"})
}

func BenchmarkStat(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	benchModule(b, "stat", tasks.Args{"path": filepath.Join(dir, "f")})
}

func BenchmarkCommand(b *testing.B) {
	benchModule(b, "command", tasks.Args{"_raw_params": "true"})
}
