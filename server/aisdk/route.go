package aisdk

import (
	"context"
	"errors"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/server"
)

// DefaultChatPath is ChatRoute's path when none is given.
const DefaultChatPath = "/chat/{agentId}"

// ChatRouteOptions configure a chat route (Mastra's chatRoute options).
type ChatRouteOptions struct {
	// Path is the route's http.ServeMux path (default DefaultChatPath).
	// It names the agent with an {agentId} segment (Mastra's ":agentId"
	// is accepted too), unless Agent is set.
	Path string
	// Agent, when set, is the id (or registry key) of the one agent the
	// route talks to; an {agentId} in the path is then ignored.
	Agent string
	// Chat configures the runs and their UI message streams. Its Resource
	// is ignored: the route takes the caller's resource from
	// server.AuthResource.
	Chat ChatOptions
	// Heartbeat, when positive, sends an SSE comment (": heartbeat")
	// whenever the stream has been idle that long, so that proxies do not
	// close a connection while a tool or a model takes its time.
	Heartbeat time.Duration
	// Logger logs failed requests and streams (default: the registry's).
	Logger *slog.Logger
	// Resumable (Mastra's resumable) makes the chat's new runs outlive
	// their request: a run is started detached from the client's
	// connection (agent.Agent.Start), so a client that goes away (a
	// reload, a lost network) leaves it running, and the chat's active
	// run can be streamed again from its start by the GET route
	// ChatRoutes adds. Runs are found by the request's chat id (useChat's
	// id): the run of a request without one is detached all the same, but
	// cannot be reconnected to. Resumes and approvals are detached too
	// (they finish when their client goes away), but are not reconnected
	// to: a chat's active stream is its new run. With Resumable a client cannot stop a run by
	// disconnecting; stop it with agent.Agent.AbortRun or AbortThread.
	Resumable bool
}

// ChatRoute returns the POST route a Vercel AI SDK useChat front end
// talks to (Mastra's chatRoute from @mastra/ai-sdk), for server.Options
// Routes. Its body is a ChatRequest; its answer is the UI message stream
// of the agent's response as server-sent events (see StreamChat), with the
// headers of the AI SDK's createUIMessageStreamResponse
// (x-vercel-ai-ui-message-stream: v1), one "data: <part>\n\n" frame per
// Part, flushed as it comes, and "data: [DONE]\n\n" at the end.
//
// Requests that cannot be served are answered with a JSON error,
// {"error": message} (plus "issues" for an invalid body), as the server's
// own routes answer: 404 for an unknown agent, 400 for a malformed or
// invalid body (no messages, resume data without a run id), 413 for a body
// over the server's limit, 403 for a thread or run of another resource,
// 404 for a run that does not exist, 409 for a run being resumed
// elsewhere. (Mastra answers all of these 500 "Internal Server Error".) A
// failure after the stream began is sent as an error part ("An error
// occurred.", or Chat.Stream.OnError's text) before [DONE]. A client that
// goes away cancels the run, unless the route is Resumable (see
// ChatRoutes for the route that reconnects to it).
//
// The body limit and authentication are the server's; the caller's
// resource (server.AuthResource) replaces any the request names. A
// misconfigured route (no {agentId} in the path and no Agent) answers
// every request 500 with the configuration error; NewChatRoute reports it
// up front.
func ChatRoute(m *mastra.Mastra, opts ChatRouteOptions) server.Route {
	rt, err := NewChatRoute(m, opts)
	if err != nil {
		rt.Handler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			writeJSONError(w, &RequestError{Status: http.StatusInternalServerError, Message: err.Error()})
		})
	}
	return rt
}

// ErrChatRoutePath is NewChatRoute's error for a path that does not name
// the agent when no fixed Agent is given.
var ErrChatRoutePath = errors.New("aisdk: the chat route's path must include {agentId} (or :agentId), or the agent must be given")

// NewChatRoute is ChatRoute returning the configuration error, if any,
// instead of a route that answers it.
func NewChatRoute(m *mastra.Mastra, opts ChatRouteOptions) (server.Route, error) {
	path := muxPath(opts.Path)
	rt := server.Route{Method: http.MethodPost, Path: path}
	if opts.Agent == "" && !strings.Contains(path, "{agentId}") {
		return rt, ErrChatRoutePath
	}
	if m == nil {
		return rt, errors.New("aisdk: the chat route needs a registry")
	}
	rt.Handler = &chatHandler{m: m, opts: opts, log: chatLogger(m, opts), streams: newActiveStreams()}
	return rt, nil
}

var colonParam = regexp.MustCompile(`:([A-Za-z_][A-Za-z0-9_]*)`)

// muxPath is the route's path in http.ServeMux's syntax.
func muxPath(p string) string {
	if p == "" {
		return DefaultChatPath
	}
	return colonParam.ReplaceAllString(p, "{$1}")
}

type chatHandler struct {
	m    *mastra.Mastra
	opts ChatRouteOptions
	log  *slog.Logger
	// streams are the chats' active runs (Resumable).
	streams *activeStreams
}

// agentOf finds the request's agent, or answers 404.
func (h *chatHandler) agentOf(w http.ResponseWriter, r *http.Request) (*agent.Agent, bool) {
	id := h.opts.Agent
	if id == "" {
		id = r.PathValue("agentId")
	}
	a := findAgent(h.m, id)
	if a == nil {
		writeJSONError(w, &RequestError{Status: http.StatusNotFound, Message: "Agent with id " + id + " not found"})
		return nil, false
	}
	return a, true
}

func (h *chatHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a, ok := h.agentOf(w, r)
	if !ok {
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeJSONError(w, &RequestError{Status: http.StatusRequestEntityTooLarge, Message: "Request body too large"})
			return
		}
		if errors.Is(err, os.ErrDeadlineExceeded) { // server.Options.BodyReadTimeout
			writeJSONError(w, &RequestError{Status: http.StatusRequestTimeout, Message: "Request Timeout"})
			return
		}
		writeJSONError(w, &RequestError{Status: http.StatusBadRequest, Message: "Failed to read request body"})
		return
	}
	req, err := ParseChatRequest(body)
	if err != nil {
		writeJSONError(w, err)
		return
	}
	chat := h.opts.Chat
	chat.Resource = server.AuthResource(r)
	runs := boundRuns
	if h.opts.Resumable {
		runs = chatRuns{start: h.detachedRun(req.ID), resume: detachedResume}
	}
	writeUIStream(w, r, h.log, h.opts.Heartbeat, chat.Stream.OnError, func(ctx context.Context) iter.Seq2[Part, error] {
		return streamChat(ctx, a, req, chat, runs)
	})
}

// findAgent finds an agent as Mastra's getAgentById does: by id, then by
// registry key.
func findAgent(m *mastra.Mastra, id string) *agent.Agent {
	if id == "" {
		return nil
	}
	for _, key := range m.AgentKeys() {
		if a, err := m.GetAgent(key); err == nil && a.ID() == id {
			return a
		}
	}
	if a, err := m.GetAgent(id); err == nil {
		return a
	}
	return nil
}
