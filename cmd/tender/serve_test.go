package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents/store"
)

// get fetches path from the web view of st, with the headers given.
func get(t *testing.T, h http.Handler, path string, header ...string) (int, string, http.Header) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b), rec.Result().Header
}

// The web view shows the runs, one run's results and recap, the agent
// fleet and their JSON; a running run's page reloads itself; what the
// ledger holds is escaped, never markup; an unknown run is a 404.
func TestServePages(t *testing.T) {
	bundle, inv, state, _ := agentBundle(t)
	if code, _, errOut := runCLI(t, "agent", "deploy", "-i", inv, "--bundle", bundle, "--state", state); code != 0 {
		t.Fatal(errOut)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, _ := st.StartRun(ctx, store.Run{Kind: "play", Command: "tender play <site>.yml", Playbooks: "<script>alert(1)</script>.yml"})
	st.AddRunResults(ctx, id, []store.RunResult{{Play: "web", Task: "<b>install</b>", Host: "web1", Status: "failed", Msg: "x < y & z", At: time.Now()}})
	h := newWeb(st, "")
	code, body, hdr := get(t, h, "/")
	if code != 200 || !strings.Contains(body, `<a href="/runs/2">2</a>`) || !strings.Contains(body, `&lt;script&gt;alert(1)&lt;/script&gt;.yml`) ||
		strings.Contains(body, "<script>") || !strings.Contains(body, `http-equiv="refresh"`) || !strings.Contains(body, " agent ") && !strings.Contains(body, ">agent<") {
		t.Fatalf("runs page %d:\n%s", code, body)
	}
	if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}
	code, body, _ = get(t, h, "/runs/2")
	if code != 200 || !strings.Contains(body, "&lt;b&gt;install&lt;/b&gt;") || !strings.Contains(body, "x &lt; y &amp; z") || !strings.Contains(body, `id="run-status">running`) {
		t.Fatalf("run page %d:\n%s", code, body)
	}
	st.FinishRun(ctx, id, "failed", `{"web1":{"failed":1}}`)
	code, body, _ = get(t, h, "/runs/2")
	if code != 200 || strings.Contains(body, `http-equiv="refresh"`) || !strings.Contains(body, "<tr><td>web1</td><td>0</td><td>0</td><td>0</td><td>1</td>") {
		t.Fatalf("finished run page %d:\n%s", code, body)
	}
	code, body, _ = get(t, h, "/agents")
	if code != 200 || !strings.Contains(body, `id="agent-demo"`) || !strings.Contains(body, "<td>a</td><td>1</td>") || !strings.Contains(body, `id="rollouts"`) ||
		!strings.Contains(body, `<div class="wave">wave 1: 2 hosts: 2 ok</div>`) {
		t.Fatalf("agents page %d:\n%s", code, body)
	}
	if code, body, _ = get(t, h, "/api/runs/2"); code != 200 || !strings.Contains(body, `"Task": "\u003cb\u003einstall\u003c/b\u003e"`) && !strings.Contains(body, `"Task": "<b>install</b>"`) {
		t.Fatalf("run JSON %d:\n%s", code, body)
	}
	for _, path := range []string{"/runs/99", "/runs/x", "/nothing"} {
		if code, _, _ := get(t, h, path); code != 404 {
			t.Errorf("%s: %d", path, code)
		}
	}
	if code, body, _ := get(t, h, "/static/tender.css"); code != 200 || !strings.Contains(body, "table") {
		t.Errorf("css %d", code)
	}
}

// With a token, every request needs it: in the Authorization header, or
// once in ?token=, which sets a cookie and drops it from the address.
func TestServeToken(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir()+"/ledger.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := newWeb(st, "s3cret-token")
	if code, body, _ := get(t, h, "/"); code != 401 || strings.Contains(body, "s3cret") {
		t.Fatalf("no token: %d %s", code, body)
	}
	if code, _, _ := get(t, h, "/", "Authorization", "Bearer wrong"); code != 401 {
		t.Fatalf("wrong token: %d", code)
	}
	if code, _, _ := get(t, h, "/api/runs", "Authorization", "Bearer s3cret-token"); code != 200 {
		t.Fatalf("bearer: %d", code)
	}
	code, _, hdr := get(t, h, "/agents?token=s3cret-token")
	if code != http.StatusSeeOther || hdr.Get("Location") != "/agents" || !strings.Contains(hdr.Get("Set-Cookie"), "tender_token=s3cret-token") || !strings.Contains(hdr.Get("Set-Cookie"), "HttpOnly") {
		t.Fatalf("?token: %d %v", code, hdr)
	}
	if code, _, _ := get(t, h, "/agents", "Cookie", "tender_token=s3cret-token"); code != 200 {
		t.Fatalf("cookie: %d", code)
	}
	// Not on loopback, the command wants a token before it listens.
	if code, _, errOut := runCLI(t, "serve", "--addr", "0.0.0.0:0", "--state", t.TempDir()+"/l.db"); code != 5 || !strings.Contains(errOut, "give --token") {
		t.Fatalf("serve without a token on 0.0.0.0: %d %s", code, errOut)
	}
}
