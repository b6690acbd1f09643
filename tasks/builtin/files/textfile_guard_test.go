package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestTextWriteRefusesConcurrentChange: lineinfile, replace, blockinfile
// and ini_file read a file, edit it in Go and write it back; a change made
// on the host in between must be kept and reported, not overwritten.
func TestTextWriteRefusesConcurrentChange(t *testing.T) {
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	ctx := context.Background()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, initial, meanwhile string
		create                   bool
	}{
		{name: "edited", initial: "a=1\n", meanwhile: "a=1\nb=2\n"},
		{name: "created", meanwhile: "made by someone else\n", create: true},
		{name: "removed", initial: "a=1\n"},
	} {
		p := filepath.Join(dir, tc.name)
		if !tc.create {
			if err := os.WriteFile(p, []byte(tc.initial), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		f, fail, err := shared.ReadText(ctx, env, p, shared.FileAttrs{})
		if err != nil || fail != nil {
			t.Fatalf("%s: read: %v %+v", tc.name, err, fail)
		}
		if tc.meanwhile != "" {
			os.WriteFile(p, []byte(tc.meanwhile), 0o644)
		} else {
			os.Remove(p)
		}
		_, msg, err := f.WriteText(ctx, env, []byte("a=9\n"), shared.WriteOpts{Mkdirs: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, "changed while it was being edited") {
			t.Errorf("%s: write went ahead over a change made in between (msg %q)", tc.name, msg)
		}
		got, _ := os.ReadFile(p)
		if string(got) != tc.meanwhile {
			t.Errorf("%s: file is %q, want the change made in between %q", tc.name, got, tc.meanwhile)
		}
	}
	// Unchanged since the read: the write goes ahead.
	p := filepath.Join(dir, "edited")
	f, _, _ := shared.ReadText(ctx, env, p, shared.FileAttrs{})
	if _, msg, err := f.WriteText(ctx, env, []byte("a=9\n"), shared.WriteOpts{}); err != nil || msg != "" {
		t.Fatalf("write of an unchanged file: %v %q", err, msg)
	}
	if got, _ := os.ReadFile(p); string(got) != "a=9\n" {
		t.Errorf("file is %q after the write", got)
	}
}
