package net

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestGetURL fetches from a local server through the connection's Dial:
// download, a second run that changes nothing (If-Modified-Since), a
// checksum that skips the request, a wrong checksum, force with equal
// content, a directory dest, check mode, basic auth kept out of the
// result, and a 404.
func TestGetURL(t *testing.T) {
	body := "agent v1\n"
	var gets atomic.Int32
	modified := time.Now().Add(-time.Hour).UTC()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/agent.bin":
			gets.Add(1)
			if u, p, ok := r.BasicAuth(); ok && (u != "bob" || p != "s3cret") {
				http.Error(w, "no", http.StatusUnauthorized)
				return
			}
			http.ServeContent(w, r, "agent.bin", modified, strings.NewReader(body))
		case "/named":
			w.Header().Set("Content-Disposition", `attachment; filename="given.txt"`)
			w.Write([]byte(body))
		case "/SHA256SUMS":
			s := sha256.Sum256([]byte(body))
			w.Write([]byte(hex.EncodeToString(s[:]) + "  agent.bin\n0000  other\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, "agent.bin")
	res := modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/agent.bin", "dest": dest, "mode": "0640",
		"url_username": "bob", "url_password": "s3cret"})
	if !res.Changed || res.Failed || modtest.ReadFile(t, dest) != body || res.Data["mode"] != "0640" || res.Data["msg"] != "OK (9 bytes)" {
		t.Fatalf("download: %+v", res)
	}
	if cc.Runs != 2 || cc.Puts != 1 {
		t.Errorf("download: %d round trips and %d Puts, want 2 and 1", cc.Runs, cc.Puts)
	}
	for k, v := range res.Data {
		if s, ok := v.(string); ok && strings.Contains(s, "s3cret") {
			t.Errorf("the password shows in %s", k)
		}
	}
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/agent.bin", "dest": dest, "mode": "0640"})
	if res.Changed || res.Failed || res.Data["status_code"] != 304 {
		t.Errorf("second run: %+v", res)
	}
	n := gets.Load()
	sum := sha256.Sum256([]byte(body))
	before := cc.Runs
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/agent.bin", "dest": dest, "checksum": "sha256:" + hex.EncodeToString(sum[:])})
	if res.Changed || res.Data["msg"] != "file already exists" || gets.Load() != n || cc.Runs != before+1 {
		t.Errorf("checksum match must not fetch: %+v (gets %d→%d)", res, n, gets.Load())
	}
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/agent.bin", "dest": dest, "checksum": "sha256:" + srv.URL + "/SHA256SUMS"})
	if res.Changed || res.Failed {
		t.Errorf("checksum from a URL: %+v", res)
	}
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/agent.bin", "dest": filepath.Join(dir, "bad"), "checksum": "sha1:0123"})
	if !res.Failed || !strings.Contains(res.Msg, "did not match 0123") || modtest.Exists(filepath.Join(dir, "bad")) {
		t.Errorf("bad checksum: %+v", res)
	}
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/agent.bin", "dest": dest, "force": true})
	if res.Changed || res.Data["checksum_src"] != res.Data["checksum_dest"] {
		t.Errorf("force, same content: %+v", res)
	}
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/named", "dest": dir})
	if !res.Changed || res.Data["dest"] != filepath.Join(dir, "given.txt") || modtest.ReadFile(t, filepath.Join(dir, "given.txt")) != body {
		t.Errorf("directory dest: %+v", res)
	}
	env.Check = true
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/agent.bin", "dest": filepath.Join(dir, "new")})
	if !res.Changed || modtest.Exists(filepath.Join(dir, "new")) {
		t.Errorf("check mode: %+v", res)
	}
	env.Check = false
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/missing", "dest": filepath.Join(dir, "m")})
	if !res.Failed || res.Msg != "Request failed" || res.Data["status_code"] != 404 || res.Data["response"] != "HTTP Error 404: Not Found" {
		t.Errorf("404: %+v", res)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tender") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
