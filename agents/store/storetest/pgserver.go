package storetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// RequireEnv is the environment variable that turns "PostgreSQL is not
// installed" from a skip into a failure: .ci/run sets it, so CI cannot
// silently skip the PostgreSQL tests.
const RequireEnv = "TENDER_REQUIRE_POSTGRES"

// ErrNoPostgres is what StartPostgres returns when no PostgreSQL server
// binaries (initdb, pg_ctl) are installed.
var ErrNoPostgres = errors.New("no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or $PATH: apt-get install postgresql")

// Postgres is a throwaway PostgreSQL server: a cluster in a temporary
// directory, listening only on a unix socket there (no TCP port, so it
// neither collides with nor is reachable from anything else), with trust
// authentication for its superuser.
type Postgres struct {
	dir, bin string
	as       []string // the command prefix that runs as the server's user
	user     string   // the database superuser
	opts     string   // the server's options (pg_ctl -o)
	n        atomic.Int64
}

// StartPostgres makes and starts a server. Run it once per test binary
// (TestMain) and Stop it at the end. As root it runs the server as the
// unprivileged "postgres" user (PostgreSQL refuses to run as root),
// through runuser, and gives it the temporary directory.
func StartPostgres() (*Postgres, error) {
	bin := binDir()
	if bin == "" {
		return nil, ErrNoPostgres
	}
	// A short directory: a unix socket's path is limited to ~100 bytes.
	dir, err := os.MkdirTemp("/tmp", "tender-pg-")
	if err != nil {
		return nil, err
	}
	p := &Postgres{dir: dir, bin: bin}
	p.user = "tender"
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, and PostgreSQL will not: no unprivileged user postgres to run it as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		p.as = []string{"runuser", "-u", "postgres", "--"}
	}
	data := filepath.Join(dir, "data")
	if out, err := p.run("initdb", "-D", data, "-U", p.user, "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	// fsync off: the machine does not crash under a test. Commits stay
	// synchronous, so that Restart, an immediate stop, loses none.
	p.opts = fmt.Sprintf("-c listen_addresses='' -k %s -c fsync=off -c full_page_writes=off -c max_connections=200", dir)
	if err := p.start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return p, nil
}

func (p *Postgres) start() error {
	if out, err := p.run("pg_ctl", "-D", filepath.Join(p.dir, "data"), "-l", filepath.Join(p.dir, "log"), "-o", p.opts, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(p.dir, "log"))
		return fmt.Errorf("pg_ctl start: %w\n%s%s", err, out, log)
	}
	return nil
}

// Restart stops the server at once, as a crash would (every connection
// cut, no checkpoint), waits down, and starts it again on the same data:
// what a control plane's database does when it fails over or restarts.
func (p *Postgres) Restart(down time.Duration) error {
	if out, err := p.run("pg_ctl", "-D", filepath.Join(p.dir, "data"), "-m", "immediate", "-w", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %w\n%s", err, out)
	}
	time.Sleep(down)
	return p.start()
}

// binDir finds the newest /usr/lib/postgresql/*/bin (Debian's layout), or
// the directory of an initdb on $PATH.
func binDir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

func (p *Postgres) run(name string, args ...string) ([]byte, error) {
	argv := append(append(slices.Clone(p.as), filepath.Join(p.bin, name)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = p.dir
	return cmd.CombinedOutput()
}

// URL is the URL of database db on the server.
func (p *Postgres) URL(db string) string {
	return fmt.Sprintf("postgres://%s@/%s?host=%s&sslmode=disable", p.user, db, p.dir)
}

// Stop stops the server at once and removes its directory.
func (p *Postgres) Stop() {
	p.run("pg_ctl", "-D", filepath.Join(p.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(p.dir)
}

// NewDatabase creates an empty database for t and returns its URL; it is
// dropped when t ends.
func (p *Postgres) NewDatabase(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), p.n.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, p.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if conn, err := pgx.Connect(ctx, p.URL("postgres")); err == nil {
			conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			conn.Close(ctx)
		}
	})
	return p.URL(name)
}

// Skip ends t when reason (why no server runs) is set: as a skip, or, when
// RequireEnv is set, as a failure.
func Skip(t testing.TB, reason error) {
	t.Helper()
	if reason == nil {
		return
	}
	if v := os.Getenv(RequireEnv); v != "" && v != "0" {
		t.Fatalf("PostgreSQL tests cannot run, and %s=%s requires them: %v", RequireEnv, v, reason)
		return
	}
	t.Skipf("PostgreSQL tests skipped: %v (set %s=1 to fail instead)", strings.TrimSpace(reason.Error()), RequireEnv)
}
