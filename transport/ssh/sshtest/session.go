package sshtest

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// serveSession handles one session channel: env, exec, shell, subsystem
// sftp and signal requests, like sshd for a user whose shell is /bin/sh.
func (s *Server) serveSession(nch ssh.NewChannel) {
	ch, reqs, err := nch.Accept()
	if err != nil {
		return
	}
	defer ch.Close()
	var (
		mu      sync.Mutex
		cmd     *exec.Cmd
		started bool
		done    = make(chan struct{})
	)
	for req := range reqs {
		s.requests.Add(1)
		switch req.Type {
		case "env":
			req.Reply(true, nil)
		case "exec", "shell":
			var command string
			if req.Type == "exec" {
				var m struct{ Command string }
				if err := ssh.Unmarshal(req.Payload, &m); err != nil {
					req.Reply(false, nil)
					continue
				}
				command = m.Command
				s.execs.Add(1)
			}
			mu.Lock()
			if started || (s.opts.RefuseShell && isBareShell(req.Type, command)) {
				mu.Unlock()
				req.Reply(false, nil)
				continue
			}
			started = true
			args := []string{"/bin/sh"}
			if req.Type == "exec" {
				args = append(args, "-c", command)
			}
			cmd = s.command(args[0], args[1:]...)
			mu.Unlock()
			req.Reply(true, nil)
			go func() {
				defer close(done)
				s.runCommand(ch, cmd)
				ch.Close()
			}()
		case "subsystem":
			var m struct{ Name string }
			if err := ssh.Unmarshal(req.Payload, &m); err != nil || m.Name != "sftp" || started || s.opts.NoSFTP {
				req.Reply(false, nil)
				continue
			}
			started = true
			req.Reply(true, nil)
			if c := s.opts.SFTPCommand; len(c) > 0 {
				mu.Lock()
				cmd = s.command(c[0], c[1:]...)
				mu.Unlock()
				go func() {
					defer close(done)
					s.runCommand(ch, cmd)
					ch.Close()
				}()
				continue
			}
			go func() {
				defer close(done)
				srv, err := sftp.NewServer(ch)
				if err != nil {
					return
				}
				_ = srv.Serve()
				srv.Close()
				ch.Close()
			}()
		case "signal":
			var m struct{ Signal string }
			_ = ssh.Unmarshal(req.Payload, &m)
			mu.Lock()
			if cmd != nil && cmd.Process != nil {
				if sig, ok := signals[m.Signal]; ok {
					_ = cmd.Process.Signal(sig)
				}
			}
			mu.Unlock()
			if req.WantReply {
				req.Reply(true, nil)
			}
		default:
			if req.WantReply {
				req.Reply(false, nil)
			}
		}
	}
	if started {
		<-done
	}
}

// command makes the exec.Cmd of a session: in Options.Dir, with HOME
// there, when it is set.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	if d := s.opts.Dir; d != "" {
		cmd.Dir = d
		cmd.Env = append(os.Environ(), "HOME="+d, "PWD="+d)
	}
	return cmd
}

// ServeSFTP serves the SFTP protocol on rw until the client ends it: the
// body of a subsystem program for Options.SFTPCommand (rw is its stdin
// and stdout), relative paths resolved from the working directory.
func ServeSFTP(rw io.ReadWriteCloser) error {
	srv, err := sftp.NewServer(rw)
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := srv.Serve(); err != nil && err != io.EOF {
		return err
	}
	return nil
}

// isBareShell reports whether a request starts an interactive-style shell
// that reads commands from its standard input.
func isBareShell(typ, command string) bool {
	if typ == "shell" {
		return true
	}
	c := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(command), "exec "))
	switch c {
	case "sh", "/bin/sh", "bash", "/bin/bash", "sh -s", "/bin/sh -s":
		return true
	}
	return false
}

// runCommand runs cmd with the channel as its stdio, then reports its exit
// status and closes the channel, as sshd does.
func (s *Server) runCommand(ch ssh.Channel, cmd *exec.Cmd) {
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return
	}
	cmd.Stdout = countedWriter{ch, &s.writes}
	cmd.Stderr = ch.Stderr()
	// sshd reads a command's output until end of file, however long a
	// child keeps it open; the bound here only keeps a test's leftover
	// background process from holding its session forever. One second
	// was too short: on a loaded machine (a fleet of hundreds of hosts
	// on two cores) the copy of a finished command's last output could
	// lag that long, and was cut off.
	cmd.WaitDelay = 30 * time.Second
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(ch.Stderr(), "sshtest: %v\n", err)
		ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{127}))
		return
	}
	pgid := cmd.Process.Pid
	s.mu.Lock()
	s.procs[pgid] = struct{}{}
	s.mu.Unlock()
	go func() {
		_, _ = io.Copy(stdin, ch)
		stdin.Close()
	}()
	err = cmd.Wait()
	s.mu.Lock()
	delete(s.procs, pgid)
	s.mu.Unlock()
	status := uint32(0)
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			name := "KILL"
			for n, sig := range signals {
				if sig == ws.Signal() {
					name = n
				}
			}
			ch.SendRequest("exit-signal", false, ssh.Marshal(struct {
				Signal     string
				CoreDumped bool
				Error      string
				Lang       string
			}{Signal: name}))
			ch.CloseWrite()
			return
		}
		status = uint32(ee.ExitCode())
	}
	ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
	ch.CloseWrite()
}

// serveDirect forwards a direct-tcpip channel to the address it names.
func (s *Server) serveDirect(nch ssh.NewChannel) {
	var m struct {
		Host       string
		Port       uint32
		OriginHost string
		OriginPort uint32
	}
	if err := ssh.Unmarshal(nch.ExtraData(), &m); err != nil {
		nch.Reject(ssh.ConnectionFailed, "bad payload")
		return
	}
	addr := net.JoinHostPort(m.Host, fmt.Sprint(m.Port))
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		nch.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	ch, reqs, err := nch.Accept()
	if err != nil {
		nc.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	back := make(chan struct{})
	go func() {
		defer close(back)
		_, _ = io.Copy(ch, nc)
		ch.CloseWrite()
	}()
	_, _ = io.Copy(nc, ch)
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	<-back
	nc.Close()
	ch.Close()
}

// countedWriter counts the writes made to w in n.
type countedWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c countedWriter) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.w.Write(p)
}
