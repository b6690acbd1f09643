package transport_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
)

// TestSweepUploads: the command removes upload files unchanged for
// StaleUploadAge in that directory only, and nothing else.
func TestSweepUploads(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-transport.StaleUploadAge - 30*time.Second)
	files := map[string]bool{ // name: removed
		transport.UploadPrefix + "old":        true,
		transport.UploadPrefix + "fresh":      false,
		".tender-other":                       false,
		"sub/" + transport.UploadPrefix + "x": false,
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if name != transport.UploadPrefix+"fresh" {
			os.Chtimes(p, old, old)
		}
	}
	if out, err := exec.Command("sh", "-c", transport.SweepUploads(transport.Quote(dir))).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
}
