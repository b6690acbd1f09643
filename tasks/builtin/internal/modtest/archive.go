package modtest

import (
	"archive/tar"
	"bytes"
	"os"
	"testing"
	"time"
)

// ArchiveMembers are the members of the archives the unarchive tests
// build: a directory, an executable, a text file and a private file.
var ArchiveMembers = []struct {
	Name, Body string
	Mode       int64
}{{"app/", "", 0o755}, {"app/bin.sh", "#!/bin/sh\necho hi\n", 0o755}, {"app/conf.txt", "k=v\n", 0o644}, {"top.txt", "top\n", 0o600}}

// WriteTar writes a tar archive of ArchiveMembers to path.
func WriteTar(t *testing.T, path string) {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	mt := time.Unix(1700000000, 0)
	for _, m := range ArchiveMembers {
		h := &tar.Header{Name: m.Name, Mode: m.Mode, ModTime: mt, Size: int64(len(m.Body)), Typeflag: tar.TypeReg, Uname: "root", Gname: "root"}
		if m.Body == "" {
			h.Typeflag = tar.TypeDir
		}
		tw.WriteHeader(h)
		tw.Write([]byte(m.Body))
	}
	tw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
