package main

import (
	"archive/tar"
	"compress/gzip"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// packageSize is the size of the scale agent's binary: random bytes, so
// that neither gzip nor SSH compression makes its transfer cheaper.
const packageSize = 256 << 10

// makeBundle copies e2e/scale/bundle into work/bundle and writes its
// package, build/agent.tar.gz (bin/agent inside), the same bytes on every
// run, and returns the copy's directory.
func makeBundle(work string) (string, error) {
	dir := filepath.Join(work, "bundle")
	for _, f := range []string{"agent.yaml", "deploy.yml", "files/agent.conf"} {
		b, err := os.ReadFile(filepath.Join("e2e/scale/bundle", f))
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "build"), 0o755); err != nil {
		return "", err
	}
	fh, err := os.Create(filepath.Join(dir, "build/agent.tar.gz"))
	if err != nil {
		return "", err
	}
	defer fh.Close()
	zw := gzip.NewWriter(fh)
	tw := tar.NewWriter(zw)
	data := make([]byte, packageSize)
	rng := rand.NewChaCha8([32]byte{'s', 'c', 'a', 'l', 'e'})
	rng.Read(data)
	hdr := &tar.Header{Name: "bin/agent", Mode: 0o755, Size: packageSize, ModTime: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), Format: tar.FormatUSTAR}
	if err := tw.WriteHeader(hdr); err != nil {
		return "", err
	}
	if _, err := tw.Write(data); err != nil {
		return "", err
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return dir, fh.Close()
}
