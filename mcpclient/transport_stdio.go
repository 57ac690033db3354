package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// How long Close waits for a stdio server to exit after closing its stdin,
// and then after SIGTERM, before the next step (the MCP stdio shutdown
// sequence: close stdin, SIGTERM, SIGKILL).
const (
	stdinCloseGrace = 2 * time.Second
	sigtermGrace    = 2 * time.Second
	// killWait bounds the wait after SIGKILL (a process in uninterruptible
	// sleep); the reaper goroutine still collects it when it dies.
	killWait = 5 * time.Second
	// maxSkippedLogs bounds the warnings about non-JSON-RPC output lines.
	maxSkippedLogs = 10
)

// stdioTransport starts a stdio server and speaks newline-delimited
// JSON-RPC with it. Unlike the SDK's CommandTransport it skips (and logs)
// stdout lines that are not JSON-RPC messages, as the TypeScript SDK does,
// instead of dropping the connection; bounds each line to MaxMessageBytes;
// honours write deadlines; and stops the whole process group.
type stdioTransport struct {
	cfg    *resolved
	state  *connState
	logger *slog.Logger
	// progress, when set, receives progress notifications synchronously, in
	// order with the answers around them (the SDK would hand them to a
	// handler goroutine, which may run after the call they belong to
	// returned).
	progress func(*mcp.ProgressNotificationParams)
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.cfg.Command, t.cfg.Args...)
	cmd.Env = childEnv(t.cfg.Env, t.cfg.NoDefaultEnv)
	cmd.Dir = t.cfg.Dir
	cmd.Stderr = t.cfg.Stderr
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	// Wait returns this long after the child exits even when a grandchild
	// still holds stderr open.
	cmd.WaitDelay = sigtermGrace
	startInOwnGroup(cmd)

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("mcpclient: server %q: %w", t.cfg.name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("mcpclient: server %q: %w", t.cfg.name, err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	// The child has its own copies of these ends now.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("mcpclient: server %q: starting %s: %w", t.cfg.name, t.cfg.Command, err)
	}
	c := &stdioConn{
		name:     t.cfg.name,
		cmd:      cmd,
		stdin:    inW,
		stdout:   outR,
		max:      t.cfg.maxMessageBytes,
		state:    t.state,
		logger:   t.logger,
		progress: t.progress,
		incoming: make(chan readResult),
		closed:   make(chan struct{}),
		exited:   make(chan struct{}),
	}
	go c.reap()
	go c.readLoop()
	return c, nil
}

type readResult struct {
	msgs []jsonrpc.Message
	err  error
}

// stdioConn is one running stdio server. Its two goroutines end when the
// process has exited (reap) and when stdout is closed or Close is called
// (readLoop); Close guarantees both.
type stdioConn struct {
	name     string
	cmd      *exec.Cmd
	stdin    *os.File
	stdout   *os.File
	max      int
	state    *connState
	logger   *slog.Logger
	progress func(*mcp.ProgressNotificationParams)

	incoming chan readResult
	queue    []jsonrpc.Message // read but not yet returned (batches); Read is not concurrent

	writeMu sync.Mutex

	closeOnce sync.Once
	closeErr  error
	closed    chan struct{}

	exited  chan struct{}
	waitErr error // set before exited is closed
}

// reap waits for the process.
func (c *stdioConn) reap() {
	c.waitErr = c.cmd.Wait()
	close(c.exited)
}

// logEOF reports a server that closed its stdout on its own, with its exit
// status when it has exited.
func (c *stdioConn) logEOF() {
	t := time.NewTimer(100 * time.Millisecond)
	defer t.Stop()
	select {
	case <-c.closed:
		return
	case <-c.exited:
		c.logger.Warn("MCP server process exited", "server", c.name, "status", exitStatus(c.waitErr))
	case <-t.C:
		c.logger.Warn("MCP server closed its stdout", "server", c.name)
	}
}

func exitStatus(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// readLoop reads stdout line by line and hands each JSON-RPC message to Read.
// A line longer than max ends the connection with ErrMessageTooLarge,
// having buffered at most max bytes of it.
func (c *stdioConn) readLoop() {
	br := bufio.NewReaderSize(c.stdout, 64<<10)
	var line []byte
	skipped := 0
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > c.max {
			c.state.tooLarge.Store(true)
			c.deliver(readResult{err: fmt.Errorf("%w (%d bytes) from stdio server %q", ErrMessageTooLarge, c.max, c.name)})
			return
		}
		line = append(line, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			msgs, derr := decodeLine(trimmed)
			if derr != nil {
				if skipped < maxSkippedLogs {
					c.logger.Warn("MCP server wrote a line that is not JSON-RPC to stdout; skipped",
						"server", c.name, "line", preview(trimmed), "error", derr)
				}
				skipped++
			} else if !c.deliver(readResult{msgs: msgs}) {
				return
			}
		}
		if err != nil {
			if errors.Is(err, os.ErrClosed) {
				err = io.EOF
			} else {
				c.logEOF()
			}
			c.deliver(readResult{err: err})
			return
		}
		if cap(line) > 1<<20 {
			line = nil // do not keep a large message's buffer around
		} else {
			line = line[:0]
		}
	}
}

// deliver passes r to Read, or reports false when the connection is closed.
func (c *stdioConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// decodeLine decodes one message, or a batch of them.
func decodeLine(line []byte) ([]jsonrpc.Message, error) {
	if line[0] != '[' {
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			return nil, err
		}
		return []jsonrpc.Message{msg}, nil
	}
	var raws []jsonrpc.Message
	var batch []json.RawMessage
	if err := json.Unmarshal(line, &batch); err != nil {
		return nil, err
	}
	if len(batch) == 0 {
		return nil, errors.New("empty batch")
	}
	for _, raw := range batch {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, err
		}
		raws = append(raws, msg)
	}
	return raws, nil
}

// preview is the start of a skipped line, for the log.
func preview(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) == 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-c.closed:
				return nil, io.EOF
			case r := <-c.incoming:
				if r.err != nil {
					return nil, r.err
				}
				c.queue = r.msgs
			}
		}
		m := c.queue[0]
		c.queue = c.queue[1:]
		if !c.takeProgress(m) {
			return m, nil
		}
	}
}

// takeProgress hands a progress notification to c.progress and reports
// whether it did.
func (c *stdioConn) takeProgress(m jsonrpc.Message) bool {
	req, ok := m.(*jsonrpc.Request)
	if !ok || c.progress == nil || req.IsCall() || req.Method != "notifications/progress" {
		return false
	}
	var p mcp.ProgressNotificationParams
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return false // let the SDK report it
	}
	c.progress(&p)
	return true
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("mcpclient: encoding message: %w", err)
	}
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	// A server that stopped reading must not block the caller past its
	// context.
	deadline, _ := ctx.Deadline()
	_ = c.stdin.SetWriteDeadline(deadline)
	if _, err := c.stdin.Write(data); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("mcpclient: writing to stdio server %q: %w", c.name, context.DeadlineExceeded)
		}
		return fmt.Errorf("mcpclient: writing to stdio server %q: %w: %v", c.name, mcp.ErrConnectionClosed, err)
	}
	return nil
}

func (c *stdioConn) SessionID() string { return "" }

// Close stops the server: close its stdin (and stdout), wait, SIGTERM its process group,
// wait, SIGKILL it, and wait for it to be reaped. It is idempotent.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.writeMu.Lock()
		c.stdin.Close()
		c.writeMu.Unlock()
		// Nothing more is read: a server blocked writing to stdout gets
		// EPIPE instead of waiting for SIGTERM.
		c.stdout.Close()
		c.closeErr = c.terminate()
	})
	return c.closeErr
}

func (c *stdioConn) terminate() error {
	wait := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-c.exited:
			return true
		case <-t.C:
			return false
		}
	}
	if wait(stdinCloseGrace) {
		return nil
	}
	if signalGroup(c.cmd, sigTerm) == nil && wait(sigtermGrace) {
		return nil
	}
	_ = signalGroup(c.cmd, sigKill)
	if wait(killWait) {
		return nil
	}
	return fmt.Errorf("mcpclient: stdio server %q did not exit after SIGKILL", c.name)
}
