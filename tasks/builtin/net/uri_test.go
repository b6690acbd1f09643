package net

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestURI calls a local server through the connection's Dial: JSON in
// and out, status codes, redirects, creates, dest, check mode.
func TestURI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api":
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "42"})
			w.Write([]byte(`{"method": "` + r.Method + `", "got": ` + shared.OrDefault(string(b), "null") + `, "ct": "` + r.Header.Get("Content-Type") + `", "n": 3}`))
		case "/moved":
			http.Redirect(w, r, "/api", http.StatusFound)
		case "/file":
			w.Write([]byte("payload\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/api", "method": "POST", "body": map[string]any{"a": 1}, "body_format": "json", "return_content": true})
	js, _ := res.Data["json"].(map[string]any)
	if res.Failed || res.Changed || res.Data["status"] != 200 || js["method"] != "POST" || js["ct"] != "application/json" ||
		!reflect.DeepEqual(js["got"], map[string]any{"a": 1}) || js["n"] != 3 || res.Data["content_type"] != "application/json" ||
		res.Data["cookies_string"] != "sid=42" || !strings.HasPrefix(res.Data["content"].(string), "{") {
		t.Errorf("json: %+v", res.Data)
	}
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/moved"})
	if res.Failed || res.Data["redirected"] != true || res.Data["url"] != srv.URL+"/api" {
		t.Errorf("redirect: %+v", res.Data)
	}
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/moved", "follow_redirects": "none", "status_code": []any{302}})
	if res.Failed || res.Data["status"] != 302 || res.Data["location"] != srv.URL+"/api" {
		t.Errorf("no redirect: %+v", res.Data)
	}
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/nope"})
	if !res.Failed || res.Msg != "Status code was 404 and not [200]: HTTP Error 404: Not Found" {
		t.Errorf("404: %+v", res)
	}
	dest := filepath.Join(dir, "out.txt")
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/file", "dest": dest, "mode": "0600"})
	if !res.Changed || modtest.ReadFile(t, dest) != "payload\n" || res.Data["mode"] != "0600" || res.Data["path"] != dest {
		t.Errorf("dest: %+v", res.Data)
	}
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/file", "creates": dest})
	if res.Changed || res.Data["stdout"] != "skipped, since '"+dest+"' exists" {
		t.Errorf("creates: %+v", res)
	}
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/api", "method": "get"})
	if res.Failed {
		t.Errorf("lower-case method is upper-cased as Ansible does: %+v", res)
	}
	env.Check = true
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/api", "method": "DELETE"})
	if !res.Skipped {
		t.Errorf("check mode: %+v", res)
	}
}
