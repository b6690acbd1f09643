package agents_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/provision"
)

// guest is the target of the examples: this machine, through the local
// connection, so that they run anywhere. A real guest is reached over
// ssh: provision.Target{Name: "vm-1", Address: "10.0.0.7", User:
// "root", Password: pw} (or Key: transport.Key{PEM: key}).
var guest = provision.Target{Name: "vm-1", Connection: "local"}

// Run one module on a guest and read its result.
func ExampleCaller_Call() {
	c, _ := agents.NewCaller(agents.CallOptions{})
	res, err := c.Call(context.Background(), guest, "command", map[string]any{"argv": []any{"echo", "hello"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Data["stdout"], res.Data["rc"])
	// Output: hello 0
}

// Start a command in the background, keep its ID (a controller that
// restarts finds it again with Caller.Job), and wait for it.
func ExampleCaller_Cast() {
	ctx := context.Background()
	c, _ := agents.NewCaller(agents.CallOptions{})
	job, err := c.Cast(ctx, guest, "shell", map[string]any{"cmd": "sleep 0.2; echo upgraded"})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.Job(guest, job.ID).Wait(ctx, 50*time.Millisecond)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Data["stdout"])
	job.Forget(ctx)
	// Output: upgraded
}

// Put a file on a guest, and fetch one back.
func ExampleCaller_Put() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "put-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "agent.conf"), []byte("port=7070\n"), 0o600)
	c, _ := agents.NewCaller(agents.CallOptions{})
	for range 2 {
		res, err := c.Put(ctx, guest, filepath.Join(dir, "agent.conf"), filepath.Join(dir, "etc-agent.conf"), "0644")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("changed:", res.Changed())
	}
	if _, err := c.Get(ctx, guest, filepath.Join(dir, "etc-agent.conf"), filepath.Join(dir, "fetched")); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "fetched"))
	fmt.Print(string(b))
	// Output:
	// changed: true
	// changed: false
	// port=7070
}

// Speak HTTP from a guest: its own loopback, through the connection.
func ExampleCaller_Dial() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "agent ok") }))
	defer srv.Close()
	c, _ := agents.NewCaller(agents.CallOptions{})
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return c.Dial(ctx, guest, network, addr)
	}}}
	resp, err := client.Get(srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Println(string(b))
	// Output: agent ok
}
