package main

import (
	"context"
	"crypto/subtle"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/agents/store"
)

//go:embed web
var webFS embed.FS

// webPages are the pages' templates, parsed once.
var webPages = template.Must(template.ParseFS(webFS, "web/*.html"))

// DefaultServeAddr is where tender serve listens without --addr: this
// machine only.
const DefaultServeAddr = "127.0.0.1:8300"

// serveCommand is `tender serve`: a read-only web view of the ledger.
func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "a read-only web view of the ledger: the run history, each run's results (live while it runs), the agent fleet",
		Flags: []cli.Flag{stateFlag(),
			&cli.StringFlag{Name: "addr", Value: DefaultServeAddr, Usage: "where to listen: HOST:PORT (on an address other than loopback, --token is required)"},
			&cli.StringFlag{Name: "token", EnvVars: []string{"TENDER_SERVE_TOKEN"}, Usage: "a secret every request must carry (Authorization: Bearer TOKEN, or ?token=TOKEN once, kept in a cookie)"},
		},
		Action: serveAction,
	}
}

func serveAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError(c, "tender serve takes no argument")
	}
	addr, token := c.String("addr"), c.String("token")
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError(c, fmt.Sprintf("--addr %s: want HOST:PORT", addr))
	}
	if ip := net.ParseIP(host); token == "" && (ip == nil || !ip.IsLoopback()) && host != "localhost" {
		return usageError(c, fmt.Sprintf("--addr %s is not a loopback address: give --token (or TENDER_SERVE_TOKEN), which every request must carry", addr))
	}
	st, err := openLedger(c, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newWeb(st, token), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(c.App.Writer, "tender serve: http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	ctx, stop := signalContext(c)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// web serves the pages of one ledger.
type web struct {
	st    store.Ledger
	token string
	mux   *http.ServeMux
}

// newWeb returns the web view's handler: the pages, their JSON, the
// style sheet; every request checked for the token when there is one.
func newWeb(st store.Ledger, token string) http.Handler {
	w := &web{st: st, token: token, mux: http.NewServeMux()}
	w.mux.HandleFunc("GET /{$}", w.runsPage)
	w.mux.HandleFunc("GET /runs/{id}", w.runPage)
	w.mux.HandleFunc("GET /agents", w.agentsPage)
	w.mux.HandleFunc("GET /api/runs", w.runsJSON)
	w.mux.HandleFunc("GET /api/runs/{id}", w.runJSON)
	static, _ := fs.Sub(webFS, "web") // the embedded tree has it
	w.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	return w
}

// tokenCookie keeps the token a ?token= request gave.
const tokenCookie = "tender_token"

func (w *web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if w.token != "" {
		if q := r.URL.Query().Get("token"); q != "" && w.tokenIs(q) {
			// Once: kept in a cookie, dropped from the address.
			http.SetCookie(rw, &http.Cookie{Name: tokenCookie, Value: q, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
			u := *r.URL
			qs := u.Query()
			qs.Del("token")
			u.RawQuery = qs.Encode()
			http.Redirect(rw, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		if !w.authorized(r) {
			http.Error(rw, "tender serve: this view needs its token (Authorization: Bearer TOKEN, or ?token=TOKEN)", http.StatusUnauthorized)
			return
		}
	}
	w.mux.ServeHTTP(rw, r)
}

// authorized reports whether r carries the token, in its Authorization
// header or its cookie.
func (w *web) authorized(r *http.Request) bool {
	if a := r.Header.Get("Authorization"); len(a) > 7 && a[:7] == "Bearer " && w.tokenIs(a[7:]) {
		return true
	}
	c, err := r.Cookie(tokenCookie)
	return err == nil && w.tokenIs(c.Value)
}

func (w *web) tokenIs(s string) bool {
	return subtle.ConstantTimeCompare([]byte(s), []byte(w.token)) == 1
}

// render writes page with data; a failure is a 500 that says so.
func (w *web) render(rw http.ResponseWriter, page string, data any) {
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := webPages.ExecuteTemplate(rw, page, data); err != nil {
		http.Error(rw, "tender serve: "+err.Error(), http.StatusInternalServerError)
	}
}

// fail answers a request the ledger could not serve.
func (w *web) fail(rw http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, store.ErrNoRun) {
		code = http.StatusNotFound
	}
	http.Error(rw, "tender serve: "+err.Error(), code)
}

// runID reads the {id} of a path.
func runID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%q is no run number: %w", r.PathValue("id"), store.ErrNoRun)
	}
	return id, nil
}
