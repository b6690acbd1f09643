package net

import (
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// echo answers with the request's method, path and body.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Write([]byte(r.Method + " " + r.URL.Path + " " + string(b)))
})

// TestURISrc: src sends a controller file (looked for as files are) or,
// with remote_src, a host file, as the request's body; a missing one
// fails as Ansible's.
func TestURISrc(t *testing.T) {
	srv := httptest.NewServer(echo)
	defer srv.Close()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"from": "controller"}`), 0o644)
	host := filepath.Join(t.TempDir(), "host.txt")
	os.WriteFile(host, []byte("from the host"), 0o644)
	for _, c := range []struct {
		args tasks.Args
		want string
	}{
		{tasks.Args{"src": "body.json"}, `POST /x {"from": "controller"}`},
		{tasks.Args{"src": host, "remote_src": true}, "POST /x from the host"},
	} {
		c.args["url"], c.args["method"], c.args["return_content"] = srv.URL+"/x", "POST", true
		res := modtest.RunMod(t, env, "uri", c.args)
		if res.Failed || res.Data["content"] != c.want {
			t.Errorf("%v: %+v", c.args, res)
		}
	}
	res := modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/x", "src": "/nonexistent", "remote_src": true})
	if !res.Failed || res.Msg != "Unable to open source file /nonexistent" {
		t.Errorf("missing host src: %+v", res)
	}
}

// TestURIUnixSocketAndCA: unix_socket sends the request to a socket of
// the host whatever the URL's host; ca_path makes the host's PEM file the
// authority a TLS server is checked against.
func TestURIUnixSocketAndCA(t *testing.T) {
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip(err)
	}
	srv := &http.Server{Handler: echo}
	go srv.Serve(l)
	defer srv.Close()
	res := modtest.RunMod(t, env, "uri", tasks.Args{"url": "http://localhost/v1/info", "unix_socket": sock, "return_content": true})
	if res.Failed || res.Data["content"] != "GET /v1/info " {
		t.Errorf("unix_socket: %+v", res)
	}

	tlsSrv := httptest.NewTLSServer(echo)
	defer tlsSrv.Close()
	ca := filepath.Join(dir, "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw}), 0o644)
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": tlsSrv.URL + "/tls", "ca_path": ca, "return_content": true})
	if res.Failed || res.Data["content"] != "GET /tls " {
		t.Errorf("ca_path: %+v", res)
	}
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": tlsSrv.URL + "/tls"})
	if !res.Failed || !strings.Contains(res.Msg, "certificate") {
		t.Errorf("without ca_path a test server's certificate must fail: %+v", res)
	}
}
