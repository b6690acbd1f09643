package net

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// pathScript waits on the host, for at least $left seconds of sleeping, until $p exists
// ($want=present) or is gone ($want=absent), checking every $nap seconds.
// On success it prints verdict=ok with the path's _t_info and, when $grab
// is set, its content after a "--content--" line.
//
//go:embed path.sh
var pathScript string

func (w *waiter) remaining() time.Duration { return time.Until(w.deadline()) }

func (w *waiter) nap(ctx context.Context) error {
	return sleepCtx(ctx, min(time.Duration(w.a.Int("sleep"))*time.Second, max(w.remaining(), 0)))
}

// path polls a path: the script waits on the host; a search_regex is
// matched here, and a file that does not match yet is polled again.
func (w *waiter) path(ctx context.Context) (bool, error) {
	want := "present"
	if w.a.Str("state") == "absent" {
		want = "absent"
	}
	for {
		left := int(w.remaining().Seconds() + 0.999)
		if left < 0 {
			left = 0
		}
		script := fmt.Sprintf("%s%sp=%s\nwant=%s\nleft=%d\nnap=%d\ngrab=%s\n%s", shared.ShFuncs, shared.AttrFuncs,
			shared.ShPath(w.a.Str("path")), want, left, max(w.a.Int("sleep"), 1), shared.BoolFlag(w.re != nil), pathScript)
		out, err := shared.Run(ctx, w.env, script, nil)
		if err != nil {
			return false, err
		}
		v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
		switch v["verdict"] {
		case "ok":
		case "timeout":
			return false, nil
		default:
			return false, errors.New(shared.ScriptError(out))
		}
		if want == "absent" {
			return true, nil
		}
		if w.re == nil || w.match(contentOf(out.Stdout)) {
			shared.InfoData(w.data, v, "")
			return true, nil
		}
		if w.remaining() <= 0 {
			return false, nil
		}
		if err := w.nap(ctx); err != nil {
			return false, err
		}
	}
}

func contentOf(out []byte) string {
	_, c, _ := bytes.Cut(out, []byte("\n--content--\n"))
	return string(c)
}

// port connects from the host's side until the port answers (and sends
// text matching search_regex) or, for stopped/absent, until it refuses.
func (w *waiter) port(ctx context.Context) (bool, error) {
	addr := net.JoinHostPort(w.a.Str("host"), strconv.Itoa(w.a.Int("port")))
	stop := w.a.Str("state") == "stopped" || w.a.Str("state") == "absent"
	for {
		dctx, cancel := context.WithTimeout(ctx, min(time.Duration(w.a.Int("connect_timeout"))*time.Second, max(w.remaining(), time.Millisecond)))
		c, err := w.env.Conn.Dial(dctx, "tcp", addr)
		cancel()
		if errors.Is(err, transport.ErrUnreachable) || ctx.Err() != nil {
			return false, errors.Join(err, ctx.Err())
		}
		switch {
		case stop && err != nil:
			return true, nil
		case !stop && err == nil && w.re == nil:
			c.Close()
			return true, nil
		case !stop && err == nil:
			ok := w.readMatch(c)
			c.Close()
			if ok {
				return true, nil
			}
		case c != nil:
			c.Close()
		}
		if w.remaining() <= 0 {
			return false, nil
		}
		if err := w.nap(ctx); err != nil {
			return false, err
		}
	}
}

// readMatch reads from c until search_regex matches, c closes or the
// timeout passes.
func (w *waiter) readMatch(c net.Conn) bool {
	c.SetReadDeadline(w.deadline())
	var buf []byte
	chunk := make([]byte, 4096)
	for {
		n, err := c.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if w.match(string(buf)) {
			return true
		}
		if err != nil || err == io.EOF {
			return false
		}
	}
}

// tcpStates are /proc/net/tcp's state codes.
var tcpStates = map[string]string{
	"01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1", "05": "FIN_WAIT2",
	"06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0A": "LISTEN", "0B": "CLOSING",
}

// drained polls the host's /proc/net/tcp{,6} until no connection to the
// port is in an active state (from a host not excluded).
func (w *waiter) drained(ctx context.Context) (bool, error) {
	active := map[string]bool{}
	for _, s := range w.a.Strings("active_connection_states") {
		active[strings.ToUpper(s)] = true
	}
	excluded := map[string]bool{}
	for _, h := range w.a.Strings("exclude_hosts") {
		excluded[h] = true
	}
	for {
		out, err := shared.Run(ctx, w.env, "cat /proc/net/tcp /proc/net/tcp6 2>/dev/null", nil)
		if err != nil {
			return false, err
		}
		busy := false
		for _, line := range strings.Split(string(out.Stdout), "\n") {
			f := strings.Fields(line)
			if len(f) < 4 || !strings.Contains(f[1], ":") {
				continue
			}
			_, lp, _ := strings.Cut(f[1], ":")
			rip, _, _ := strings.Cut(f[2], ":")
			port, err := strconv.ParseUint(lp, 16, 16)
			if err != nil || int(port) != w.a.Int("port") || !active[tcpStates[f[3]]] {
				continue
			}
			if !excluded[procIP(rip)] {
				busy = true
			}
		}
		if !busy {
			return true, nil
		}
		if w.remaining() <= 0 {
			return false, nil
		}
		if err := w.nap(ctx); err != nil {
			return false, err
		}
	}
}

// procIP decodes /proc/net/tcp's little-endian hex address.
func procIP(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil {
		return h
	}
	for i := 0; i+4 <= len(b); i += 4 {
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
	if ip := net.IP(b); ip.To4() != nil || len(b) == 16 {
		return ip.String()
	}
	return h
}
