package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// launcher makes the command that serves the app on 127.0.0.1:port (not
// started yet).
type launcher func(port int) *exec.Cmd

// server is a started server process.
type server struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:<port>
	output *tailBuffer
	exited chan struct{}
	err    error // the exit status, once exited is closed
}

// readyTimeout bounds how long a server may take to answer its first
// request (Mastra takes about 1.5 s; a cold disk cache, more).
const readyTimeout = 60 * time.Second

// startServer starts a server and waits for its first 200 from GET
// /api/tools, polling. It returns the server and the time from process
// spawn to that answer. On error the process is stopped.
func startServer(ctx context.Context, launch launcher, client *http.Client) (*server, time.Duration, error) {
	port, err := freePort()
	if err != nil {
		return nil, 0, err
	}
	cmd := launch(port)
	out := &tailBuffer{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	s := &server{cmd: cmd, base: "http://127.0.0.1:" + strconv.Itoa(port), output: out, exited: make(chan struct{})}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, 0, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	go func() {
		s.err = cmd.Wait()
		close(s.exited)
	}()
	deadline := time.NewTimer(readyTimeout)
	defer deadline.Stop()
	for {
		if ok := s.answers(ctx, client); ok {
			return s, time.Since(t0), nil
		}
		select {
		case <-s.exited:
			return nil, 0, fmt.Errorf("%s exited before answering (%v): %s", cmd.Path, s.err, out.String())
		case <-ctx.Done():
			s.stop()
			return nil, 0, ctx.Err()
		case <-deadline.C:
			s.stop()
			return nil, 0, fmt.Errorf("%s did not answer within %v: %s", cmd.Path, readyTimeout, out.String())
		case <-time.After(200 * time.Microsecond):
		}
	}
}

// answers reports whether GET /api/tools answers 200.
func (s *server) answers(ctx context.Context, client *http.Client) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/api/tools", nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// pid is the server's process id.
func (s *server) pid() int { return s.cmd.Process.Pid }

// stop asks the server to stop (SIGTERM), kills it after 5 s, and waits
// for it to exit.
func (s *server) stop() {
	select {
	case <-s.exited:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// freePort finds a free TCP port on 127.0.0.1.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, errors.New("finding a free port: not a TCP address")
	}
	return addr.Port, nil
}

// tailBuffer keeps the last max bytes written to it (a process's output,
// for error messages). It is safe for concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
