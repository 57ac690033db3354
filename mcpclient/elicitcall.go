package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// pendingCall is a tool call that may suspend on an elicitation: the
// request runs on its own goroutine, detached from the Execute that
// started it, so that it can keep waiting (in memory, up to
// ElicitationTimeout) while the call is suspended, and be handed the
// answer by the Execute that resumes it.
type pendingCall struct {
	s    *server
	key  string
	tool string

	asks   chan *elicitAsk // from the SDK's handler to the owning Execute
	done   chan struct{}   // closed when the request ended
	res    *mcp.CallToolResult
	err    error
	ctx    context.Context // the request's
	cancel context.CancelCauseFunc

	// Guarded by s.events.mu.
	waiting *elicitAsk  // the ask the call is suspended on
	expire  *time.Timer // drops the call when nobody answers in time
}

// elicitAsk is one elicitation handed to the owning Execute.
type elicitAsk struct {
	req    *ElicitationRequest
	answer chan *ElicitationResponse // buffered: one answer
}

// callKey names the call for its resume: the run and the model's call id.
func callKey(ctx tools.Context) string { return ctx.RunID() + "\x00" + ctx.ToolCallID() }

// canSuspend reports whether an elicitation during this call can suspend
// it: elicitation is on, no handler answers it, and the call has an id to
// be resumed by.
func (s *server) canSuspend(ctx tools.Context) bool {
	return !s.cfg.DisableElicitation && ctx.ToolCallID() != "" &&
		s.events.elicitationHandler(s.cfg.ElicitationHandler) == nil
}

// startCall starts the request of a call that may suspend.
func (s *server) startCall(ctx tools.Context, name string, params *mcp.CallToolParams, what string) (*pendingCall, error) {
	pc := &pendingCall{s: s, key: callKey(ctx), tool: name, asks: make(chan *elicitAsk), done: make(chan struct{})}
	cctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	pc.ctx, pc.cancel = cctx, cancel
	stop := context.AfterFunc(s.ctx, func() { cancel(ErrClosed) })
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		stop()
		cancel(ErrClosed)
		return nil, ErrClosed
	}
	s.wg.Add(1)
	s.mu.Unlock()
	s.events.mu.Lock()
	s.events.calls[pc.key] = pc
	s.events.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer stop()
		pc.res, pc.err = s.callDetached(pc.ctx, what, params)
		close(pc.done)
	}()
	return pc, nil
}

// callDetached is withConn for a call that may wait for a person: no
// per-attempt timeout (wait applies the server's Timeout to the time the
// call is not suspended, and cancels ctx with the cause), the same
// wording of failures and the same one reconnect-and-retry.
func (s *server) callDetached(ctx context.Context, what string, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	attempt := func(conn *connection) (*mcp.CallToolResult, error) {
		res, err := conn.session.CallTool(ctx, params)
		if err != nil {
			return nil, s.requestError(ctx, ctx, conn, what, err)
		}
		return res, nil
	}
	conn, err := s.get(ctx)
	if err != nil {
		return nil, err
	}
	res, err := attempt(conn)
	if err == nil || !s.retryable(ctx, conn, err) {
		return res, err
	}
	s.logger.Debug("transport error; reconnecting to retry", "server", s.name, "request", what, "error", err)
	if conn, err = s.reconnect(ctx, conn); err != nil {
		return nil, err
	}
	return attempt(conn)
}

// wait is the owning Execute: it returns the call's result, or suspends
// the call on the next elicitation. The server's Timeout bounds the wait
// since the call started or was last answered; ctx's end cancels the call.
func (pc *pendingCall) wait(ctx tools.Context) (*mcp.CallToolResult, error) {
	s := pc.s
	timer := time.NewTimer(s.cfg.timeout)
	defer timer.Stop()
	for {
		select {
		case <-pc.done:
			s.events.drop(pc)
			return pc.res, pc.err
		case ask := <-pc.asks:
			if !s.events.suspend(pc, ask, s.elicitationTimeout(), s.maxSuspended()) {
				s.logger.Warn("too many tool calls wait for an elicitation answer; answering cancel",
					"server", s.name, "tool", pc.tool)
				ask.answer <- &ElicitationResponse{Action: ElicitationCancel}
				continue
			}
			return nil, ctx.Suspend(newElicitationSuspension(ask.req, ""), tools.WithResumeSchema(resumeSchema(ask.req)))
		case <-ctx.Done():
			pc.cancel(context.Cause(ctx))
		case <-timer.C:
			pc.cancel(&timeoutError{what: fmt.Sprintf("calling tool %q on server %q (after %v)", pc.tool, s.name, s.cfg.timeout)})
		}
		<-pc.done
		s.events.drop(pc)
		return nil, pc.err
	}
}

// ask hands req to the owning Execute and waits for the answer.
func (pc *pendingCall) ask(ctx context.Context, req *ElicitationRequest) (*ElicitationResponse, error) {
	a := &elicitAsk{req: req, answer: make(chan *ElicitationResponse, 1)}
	select {
	case pc.asks <- a:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-pc.ctx.Done():
		return nil, fmt.Errorf("mcpclient: the tool call ended before the elicitation was shown: %w", context.Cause(pc.ctx))
	}
	select {
	case resp := <-a.answer:
		return resp, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-pc.ctx.Done():
		return nil, fmt.Errorf("mcpclient: elicitation not answered: %w", context.Cause(pc.ctx))
	}
}

// errElicitationExpired ends a call whose elicitation nobody answered.
var errElicitationExpired = errors.New("mcpclient: nobody answered the elicitation in time")

// suspend records that pc is suspended on ask, and drops pc unanswered
// after timeout. It refuses when max calls are suspended already.
func (e *serverEvents) suspend(pc *pendingCall, ask *elicitAsk, timeout time.Duration, max int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.calls {
		if c.waiting != nil {
			n++
		}
	}
	if n >= max {
		return false
	}
	pc.waiting = ask
	pc.expire = time.AfterFunc(timeout, func() { e.expire(pc, ask, timeout) })
	return true
}

// expire ends pc, suspended on ask for timeout without an answer: it is
// forgotten first, so that a resume from then on finds no call, and then
// cancelled. A call resumed meanwhile is left alone.
func (e *serverEvents) expire(pc *pendingCall, ask *elicitAsk, timeout time.Duration) {
	e.mu.Lock()
	unanswered := pc.waiting == ask
	if unanswered {
		pc.waiting = nil
		e.forgetLocked(pc)
	}
	e.mu.Unlock()
	if unanswered {
		pc.cancel(fmt.Errorf("%w (after %v)", errElicitationExpired, timeout))
	}
}

// resume takes the call suspended under key and the ask it waits on; nil
// when there is none (it timed out, or this process did not start it).
func (e *serverEvents) resume(key string) (*pendingCall, *elicitAsk) {
	e.mu.Lock()
	defer e.mu.Unlock()
	pc := e.calls[key]
	if pc == nil || pc.waiting == nil {
		return nil, nil
	}
	ask := pc.waiting
	pc.waiting = nil
	pc.expire.Stop()
	return pc, ask
}

// drop forgets pc.
func (e *serverEvents) drop(pc *pendingCall) {
	e.mu.Lock()
	e.forgetLocked(pc)
	if pc.expire != nil {
		pc.expire.Stop()
	}
	e.mu.Unlock()
}

// forgetLocked removes pc from the calls, unless another call took its
// key. Call with e.mu held.
func (e *serverEvents) forgetLocked(pc *pendingCall) {
	if e.calls[pc.key] == pc {
		delete(e.calls, pc.key)
	}
}

// callFor finds the call an in-flight elicitation belongs to: the
// server's only running call, when it is one that can suspend.
func (e *serverEvents) callFor() *pendingCall {
	e.mu.Lock()
	defer e.mu.Unlock()
	var found *pendingCall
	for _, pc := range e.calls {
		select {
		case <-pc.done:
			continue
		default:
		}
		if found != nil {
			return nil
		}
		found = pc
	}
	if len(e.tracked) > 0 {
		return nil
	}
	return found
}

// running counts the server's calls whose request is still running.
func (e *serverEvents) running() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(e.tracked)
	for _, pc := range e.calls {
		select {
		case <-pc.done:
		default:
			n++
		}
	}
	return n
}

func (s *server) elicitationTimeout() time.Duration {
	if s.cfg.ElicitationTimeout > 0 {
		return s.cfg.ElicitationTimeout
	}
	return DefaultElicitationTimeout
}

func (s *server) maxSuspended() int {
	if s.cfg.MaxSuspendedElicitations > 0 {
		return s.cfg.MaxSuspendedElicitations
	}
	return DefaultMaxSuspendedElicitations
}
