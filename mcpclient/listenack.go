package mcpclient

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Servers on protocol 2026-07-28 and later take a resource subscription on
// a subscriptions/listen stream: the SDK's ClientSession.Subscribe sends
// the request and returns at once, and the server puts the subscription in
// place and then sends notifications/subscriptions/acknowledged, naming the
// resources it agreed to watch (none when it offers no subscriptions).
// listenAcks tracks those acknowledgements, so that SubscribeResource
// returns once the subscription is in place on both protocol styles, and
// reports a refusal as an error. The SDK's Connect opens a listen stream
// for list-changed notifications in the same way; a connection is used
// once that stream is acknowledged too, so no change is missed.

// ackMethod is the notification acknowledging a subscriptions/listen request.
const ackMethod = "notifications/subscriptions/acknowledged"

// listenAcks are the resource subscriptions of each listening session,
// acknowledged or awaited.
type listenAcks struct {
	mu       sync.Mutex
	sessions map[*mcp.ClientSession]map[string]*listenAck
	// listChanged holds, for each session, a channel closed when its
	// list-changed listen stream was acknowledged.
	listChanged map[*mcp.ClientSession]chan struct{}
}

// listenAck is one resource subscription on one session: done is closed
// when the server acknowledged it, granted reports whether it agreed.
type listenAck struct {
	done    chan struct{}
	granted bool
}

// expect returns the subscription to uri on cs, recording a new one when
// there is none; fresh reports that it is new, and so must be requested.
func (a *listenAcks) expect(cs *mcp.ClientSession, uri string) (ack *listenAck, fresh bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if ack = a.sessions[cs][uri]; ack != nil {
		return ack, false
	}
	if a.sessions == nil {
		a.sessions = map[*mcp.ClientSession]map[string]*listenAck{}
	}
	if a.sessions[cs] == nil {
		a.sessions[cs] = map[string]*listenAck{}
	}
	ack = &listenAck{done: make(chan struct{})}
	a.sessions[cs][uri] = ack
	return ack, true
}

// drop forgets the subscription to uri on cs (ended or refused).
func (a *listenAcks) drop(cs *mcp.ClientSession, uri string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.sessions[cs], uri)
	if len(a.sessions[cs]) == 0 {
		delete(a.sessions, cs)
	}
}

// forget drops every subscription of cs, a session that ended.
func (a *listenAcks) forget(cs *mcp.ClientSession) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.sessions, cs)
	delete(a.listChanged, cs)
}

// listChangedAcked returns a channel closed once cs's list-changed listen
// stream was acknowledged. Call with a.mu held.
func (a *listenAcks) listChangedAcked(cs *mcp.ClientSession) chan struct{} {
	if a.listChanged == nil {
		a.listChanged = map[*mcp.ClientSession]chan struct{}{}
	}
	ch := a.listChanged[cs]
	if ch == nil {
		ch = make(chan struct{})
		a.listChanged[cs] = ch
	}
	return ch
}

// awaitListChanged waits until conn's list-changed listen stream is
// acknowledged, when the SDK opened one (a listening session whose server
// offers list-changed notifications), or ctx ends; it reports false when
// it gave up.
func (a *listenAcks) awaitListChanged(ctx context.Context, conn *connection) bool {
	caps := conn.initResult().Capabilities
	opened := conn.listens() && caps != nil &&
		(caps.Tools != nil && caps.Tools.ListChanged ||
			caps.Prompts != nil && caps.Prompts.ListChanged ||
			caps.Resources != nil && caps.Resources.ListChanged)
	if !opened {
		return true
	}
	a.mu.Lock()
	acked := a.listChangedAcked(conn.session)
	a.mu.Unlock()
	select {
	case <-acked:
		return true
	case <-ctx.Done():
		return false
	}
}

// received settles the subscriptions an acknowledgement on cs answers:
// those it names are granted. An acknowledgement that agrees to nothing
// at all refuses every subscription still awaited on cs (the server
// offers none); one that agrees to list-changed notifications only
// answers the session's own listen request and settles nothing.
func (a *listenAcks) received(cs *mcp.ClientSession, p *mcp.SubscriptionsAcknowledgedParams) {
	n := p.Notifications
	listChanged := n.ToolsListChanged || n.PromptsListChanged || n.ResourcesListChanged
	refusal := len(n.ResourceSubscriptions) == 0 && !listChanged
	a.mu.Lock()
	defer a.mu.Unlock()
	if listChanged {
		if ch := a.listChangedAcked(cs); !isClosed(ch) {
			close(ch)
		}
	}
	subs := a.sessions[cs]
	settle := func(ack *listenAck, granted bool) {
		if !isClosed(ack.done) {
			ack.granted = granted
			close(ack.done)
		}
	}
	for _, uri := range n.ResourceSubscriptions {
		if ack := subs[uri]; ack != nil {
			settle(ack, true)
		}
	}
	if refusal {
		for _, ack := range subs {
			settle(ack, false)
		}
	}
}

// middleware passes each acknowledgement a session receives to received.
func (a *listenAcks) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == ackMethod {
			cs, isClient := req.GetSession().(*mcp.ClientSession)
			p, isAck := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams)
			if isClient && isAck && p != nil {
				a.received(cs, p)
			}
		}
		return next(ctx, method, req)
	}
}

// isClosed reports whether ch is closed.
func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
