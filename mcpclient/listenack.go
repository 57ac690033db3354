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
// reports a refusal as an error.

// ackMethod is the notification acknowledging a subscriptions/listen request.
const ackMethod = "notifications/subscriptions/acknowledged"

// listenAcks are the resource subscriptions of each listening session,
// acknowledged or awaited.
type listenAcks struct {
	mu       sync.Mutex
	sessions map[*mcp.ClientSession]map[string]*listenAck
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
}

// received settles the subscriptions an acknowledgement on cs answers:
// those it names are granted. An acknowledgement that agrees to nothing
// at all refuses every subscription still awaited on cs (the server
// offers none); one that agrees to list-changed notifications only
// answers the session's own listen request and settles nothing.
func (a *listenAcks) received(cs *mcp.ClientSession, p *mcp.SubscriptionsAcknowledgedParams) {
	n := p.Notifications
	refusal := len(n.ResourceSubscriptions) == 0 && !n.ToolsListChanged && !n.PromptsListChanged && !n.ResourcesListChanged
	a.mu.Lock()
	defer a.mu.Unlock()
	subs := a.sessions[cs]
	settle := func(ack *listenAck, granted bool) {
		select {
		case <-ack.done:
		default:
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
