package main

import (
	"bytes"
	"context"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tender-sh/tender/agents/store"
)

// chromium is the headless browser's program, or "" when none is
// installed (the test then skips, unless TENDER_REQUIRE_CHROMIUM says a
// skip would hide a broken set-up, as .ci/run does).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TENDER_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("no chromium: .ci/install.sh installs it")
	}
	t.Skip("no chromium installed")
	return ""
}

// TestServeInABrowser loads tender serve's pages in a real headless
// Chromium: the runs list shows two runs tender play recorded and one
// the test recorded, a run started after the
// page loaded appears on it by itself (the page reloads while one runs),
// the run's page shows its failed task, and a screenshot shows the page
// drawn: the header's colour across its top.
func TestServeInABrowser(t *testing.T) {
	servedInABrowser(t, chromium(t), t.TempDir()+"/ledger.db")
}

// TestServeInABrowserPostgres: the same, the history in PostgreSQL (a
// ledger several controllers share).
func TestServeInABrowserPostgres(t *testing.T) {
	bin := chromium(t)
	servedInABrowser(t, bin, postgresURL(t))
}

// servedInABrowser is TestServeInABrowser on the ledger state names
// (empty), with the browser bin: two tender play runs recorded there
// first, then the runs the test records itself.
func servedInABrowser(t *testing.T, bin, state string) {
	ctx := context.Background()
	dir := t.TempDir()
	os.WriteFile(dir+"/hosts", []byte("a ansible_connection=local\n"), 0o644)
	os.WriteFile(dir+"/recorded.yml", []byte("- hosts: all\n  gather_facts: false\n  tasks:\n    - command: \"true\"\n"), 0o644)
	for range 2 {
		if code, _, errOut := runCLI(t, "play", "-i", dir+"/hosts", "--state", state, dir+"/recorded.yml"); code != 0 {
			t.Fatal(errOut)
		}
	}
	st, err := store.OpenState(ctx, state, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	first, _ := st.StartRun(ctx, store.Run{Kind: "play", Command: "tender play site.yml", Playbooks: "site.yml"})
	st.AddRunResults(ctx, first, []store.RunResult{{Play: "web", Task: "install nginx", Host: "web1", Status: "failed", Msg: "no package nginx", At: time.Now()}})
	srv := httptest.NewServer(newWeb(st, ""))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Headless,
		chromedp.WindowSize(1200, 800), chromedp.DisableGPU)
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	bctx, cancel = context.WithTimeout(bctx, 90*time.Second)
	defer cancel()

	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible("#runs")); err != nil {
		t.Fatal(err)
	}
	list, err := chromedp.Run(bctx, chromedp.Text("#runs"))
	if err != nil || !strings.Contains(list, "site.yml") || !strings.Contains(list, "running") || strings.Count(list, "recorded.yml") != 2 {
		t.Fatalf("runs list: %q %v", list, err)
	}
	// A run that starts now shows on the open page by itself.
	second, _ := st.StartRun(ctx, store.Run{Kind: "run", Command: "tender run all -m ping", Playbooks: "all -m ping"})
	if err := chromedp.Do(bctx, chromedp.WaitVisible(`a[href="/runs/`+itoa64(second)+`"]`)); err != nil {
		t.Fatalf("the new run did not appear: %v", err)
	}
	if err := chromedp.Do(bctx, chromedp.Click(`a[href="/runs/`+itoa64(first)+`"]`), chromedp.WaitVisible("#results")); err != nil {
		t.Fatal(err)
	}
	results, err := chromedp.Run(bctx, chromedp.Text("#results"))
	if err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(bctx, chromedp.Text("#run-status"))
	if err != nil || !strings.Contains(results, "install nginx") || !strings.Contains(results, "no package nginx") || status != "running" {
		t.Fatalf("run page: %q %q %v", results, status, err)
	}
	shot, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	// The header's background (#243447) across the top of the page.
	for _, x := range []int{5, img.Bounds().Dx() / 2, img.Bounds().Dx() - 5} {
		r, g, b, _ := img.At(x, 3).RGBA()
		if r>>8 != 0x24 || g>>8 != 0x34 || b>>8 != 0x47 {
			t.Errorf("pixel (%d,3) is %02x%02x%02x, want the header's 243447", x, r>>8, g>>8, b>>8)
		}
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
