package server

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"html"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/wire"
)

// DefaultMaxBodyBytes is Mastra's request body limit: 4.5 MB
// (4.5 × 1024 × 1024 bytes).
const DefaultMaxBodyBytes int64 = 4718592

// DefaultBodyReadTimeout is the default Options.BodyReadTimeout.
const DefaultBodyReadTimeout = 60 * time.Second

// Options configure a [Server].
type Options struct {
	// APIPrefix is where the API lives (default "/api"). "/" serves it at
	// the root.
	APIPrefix string
	// MaxBodyBytes bounds request bodies (default DefaultMaxBodyBytes).
	// A larger body is answered 413 {"error":"Request body too large"}.
	MaxBodyBytes int64
	// BodyReadTimeout bounds the time a client may take to send a request
	// body, from the handler's start (default DefaultBodyReadTimeout; a
	// negative value: no bound). A body not received in time is answered
	// 408 {"error":"Request Timeout"} and its connection closed. Once the
	// body is read the bound is lifted: it never cuts a response, a long
	// SSE stream included. It needs an http.Server whose connections
	// support read deadlines (http.ResponseController.SetReadDeadline).
	BodyReadTimeout time.Duration
	// Auth, when set, authenticates every request except CORS preflights
	// and GET /health. An error is answered 401 {"error":"Unauthorized"}.
	// A non-empty resourceID is the caller's resource (Mastra's
	// mastra__resourceId set by auth middleware): it replaces any
	// resource the request names (memory.resource, resourceId), a thread
	// of another resource is refused (403), and runs of another resource
	// cannot be resumed, approved or listed.
	Auth func(r *http.Request) (resourceID string, err error)
	// BearerToken, when set, requires "Authorization: Bearer <token>" on
	// every request Auth would see (checked before Auth).
	BearerToken string
	// Logger defaults to the registry's logger.
	Logger *slog.Logger
	// MaxPendingRuns is ignored.
	//
	// Deprecated: the workflow runs create-run makes are kept in the
	// workflow's storage, pending, until they start (see
	// workflows.Workflow.CreateStoredRun), not in the server's memory:
	// every server over that storage, and the same one after a restart,
	// starts and lists them alike.
	MaxPendingRuns int
	// MaxFinishedRuns is ignored.
	//
	// Deprecated: finished workflow runs are kept in the workflow's
	// storage (see workflows.Config.FinishedRunRetention), not in the
	// server's memory: every server over that storage, and the same one
	// after a restart, answers for them alike.
	MaxFinishedRuns int
	// Routes are the app's own routes (Mastra's server.apiRoutes, such as
	// the AI SDK chat route of package aisdk), served beside the API at
	// their own paths, behind the same CORS, authentication, body limit
	// and recover guard.
	Routes []Route
	// Studio, when set, serves GET and HEAD requests outside the API
	// prefix, the custom routes and /health (the dev studio of package
	// studio). It is not behind authentication: it must serve only
	// public assets, whose API calls then authenticate. Ignored when the
	// API is served at the root.
	Studio http.Handler
}

// Route is one custom route: an http.ServeMux pattern's method and path
// ("POST", "/chat/{agentId}") and its handler, which reads the
// authenticated resource with [AuthResource].
type Route struct {
	Method, Path string
	Handler      http.Handler
	// Schema, when set, is the route's entry in GET /system/api-schema
	// (Mastra's route catalogue, which `mastra api … --schema` reads):
	// one JSON object {method, path, responseType, …} as Mastra's
	// catalogue describes the route, its path relative to the API prefix.
	Schema json.RawMessage
	// Public serves the route without Options.Auth and BearerToken: for
	// routes that are public or authenticate their own requests (an
	// OAuth-protected MCP transport and its protected resource metadata,
	// see package mcpserver).
	Public bool
}

// Server is an http.Handler serving Mastra's HTTP API over a registry:
// its tools, agents and workflows, with Mastra's routes, bodies, errors,
// SSE framing and CORS, so that Mastra's JavaScript client and CLI work
// against it unchanged. See the package documentation for the routes.
//
// A Server is safe for concurrent use. Runs started by send-tool-approval
// and workflows' start and resume routes continue after their request
// has been answered; [Server.Shutdown] ends them.
type Server struct {
	m       *mastra.Mastra
	opts    Options
	prefix  string
	maxBody int64
	log     *slog.Logger
	mux     *http.ServeMux

	// bg is the context of runs that outlive their request; bgWG counts
	// them.
	bg       context.Context
	bgCancel context.CancelFunc
	bgMu     sync.Mutex
	bgWG     sync.WaitGroup
	// inflight counts the requests being served, so that a shutdown can
	// wait for the runs they drive to finish or park.
	inflight sync.WaitGroup
	bgClosed bool

	runs *runRegistry
	// public are the ServeMux patterns of Public routes.
	public map[string]bool
	// schema is GET /system/api-schema's answer.
	schema []byte
}

// New returns the API handler for m. Its type, *Server, is an
// http.Handler (use it as one); call Shutdown when done with it to end
// the runs it started in the background. Zero Options fields take their
// defaults.
func New(m *mastra.Mastra, opts Options) *Server {
	if opts.APIPrefix == "" {
		opts.APIPrefix = "/api"
	}
	if opts.BodyReadTimeout == 0 {
		opts.BodyReadTimeout = DefaultBodyReadTimeout
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	log := opts.Logger
	if log == nil {
		log = m.Logger()
	}
	s := &Server{m: m, opts: opts, prefix: normalisePrefix(opts.APIPrefix), maxBody: opts.MaxBodyBytes, log: log,
		runs: newRunRegistry(), schema: apiSchemaWith(opts.Routes)}
	s.bg, s.bgCancel = context.WithCancel(context.Background())
	s.routes()
	return s
}

// route is one served route: the method, the path after the prefix, and
// its handler.
type route struct {
	method, path string
	h            http.HandlerFunc
}

func (s *Server) routeTable() []route {
	return []route{
		{"GET", "/tools", s.listTools},
		{"GET", "/tools/{toolId}", s.getTool},
		{"POST", "/tools/{toolId}/execute", s.executeTool},

		{"GET", "/agents", s.listAgents},
		{"GET", "/agents/{agentId}", s.getAgent},
		{"GET", "/agents/{agentId}/tools/{toolId}", s.getAgentTool},
		{"POST", "/agents/{agentId}/tools/{toolId}/execute", s.executeAgentTool},
		{"POST", "/agents/{agentId}/generate", s.generate},
		{"POST", "/agents/{agentId}/stream", s.stream},
		{"POST", "/agents/{agentId}/resume-stream", s.resumeStream},
		{"POST", "/agents/{agentId}/approve-tool-call", s.approveToolCall},
		{"POST", "/agents/{agentId}/decline-tool-call", s.declineToolCall},
		{"POST", "/agents/{agentId}/approve-tool-call-generate", s.approveToolCallGenerate},
		{"POST", "/agents/{agentId}/decline-tool-call-generate", s.declineToolCallGenerate},
		{"POST", "/agents/{agentId}/send-tool-approval", s.sendToolApproval},
		{"GET", "/agents/{agentId}/suspended-runs", s.suspendedRuns},
		{"POST", "/agents/{agentId}/observe", s.observeAgent},
		{"POST", "/agents/{agentId}/threads/abort", s.abortAgentThread},

		{"GET", "/workflows", s.listWorkflows},
		{"GET", "/workflows/{workflowId}", s.getWorkflow},
		{"POST", "/workflows/{workflowId}/create-run", s.createRun},
		{"POST", "/workflows/{workflowId}/start-async", s.startAsync},
		{"POST", "/workflows/{workflowId}/start", s.startNoWait},
		{"POST", "/workflows/{workflowId}/stream", s.streamWorkflow},
		{"POST", "/workflows/{workflowId}/resume-async", s.resumeAsync},
		{"POST", "/workflows/{workflowId}/resume", s.resumeNoWait},
		{"POST", "/workflows/{workflowId}/resume-stream", s.resumeStreamWorkflow},
		{"POST", "/workflows/{workflowId}/observe", s.observeWorkflow},
		{"GET", "/workflows/{workflowId}/runs", s.listWorkflowRuns},
		{"GET", "/workflows/{workflowId}/runs/{runId}", s.getWorkflowRun},
		{"POST", "/workflows/{workflowId}/runs/{runId}/cancel", s.cancelWorkflowRun},

		{"GET", "/memory/status", s.memoryStatus},
		{"GET", "/memory/config", s.memoryConfig},
		{"GET", "/memory/observational-memory", s.getObservationalMemory},
		{"POST", "/memory/observational-memory/buffer-status", s.awaitBufferStatus},
		{"GET", "/memory/search", s.searchMemory},
		{"GET", "/memory/threads", s.listThreads},
		{"POST", "/memory/threads", s.createThread},
		{"GET", "/memory/threads/{threadId}", s.getThread},
		{"PATCH", "/memory/threads/{threadId}", s.updateThread},
		{"DELETE", "/memory/threads/{threadId}", s.deleteThread},
		{"GET", "/memory/threads/{threadId}/messages", s.listThreadMessages},
		{"POST", "/memory/save-messages", s.saveMessages},
		{"POST", "/memory/messages/delete", s.deleteMessages},
		{"GET", "/memory/threads/{threadId}/working-memory", s.getWorkingMemory},
		{"POST", "/memory/threads/{threadId}/working-memory", s.updateWorkingMemory},

		{"GET", "/background-tasks", s.listBackgroundTasks},
		{"GET", "/background-tasks/stream", s.streamBackgroundTasks},
		{"GET", "/background-tasks/{backgroundTaskId}", s.getBackgroundTask},
		{"POST", "/background-tasks/{backgroundTaskId}/cancel", s.cancelBackgroundTask},
		{"POST", "/background-tasks/{backgroundTaskId}/resume", s.resumeBackgroundTask},

		{"GET", "/system/api-schema", s.apiSchema},
	}
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	for _, rt := range s.routeTable() {
		s.mux.HandleFunc(rt.method+" "+s.prefix+rt.path, s.checkPathIDs(rt.path, rt.h))
	}
	apiRoot := s.prefix
	if apiRoot == "" {
		apiRoot = "/{$}"
	}
	s.mux.HandleFunc("GET "+apiRoot, func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, http.StatusOK, "Hello to the Mastra API!")
	})
	for _, rt := range s.opts.Routes {
		s.mux.Handle(rt.Method+" "+rt.Path, rt.Handler)
		if rt.Public {
			if s.public == nil {
				s.public = map[string]bool{}
			}
			s.public[rt.Method+" "+rt.Path] = true
		}
	}
	s.mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		wire.WriteJSON(w, http.StatusOK, []byte(`{"success":true}`))
	})
	// Anything else: Hono's 404 (also for a known path with another
	// method, where ServeMux would answer 405).
	s.mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, http.StatusNotFound, "404 Not Found")
	})
}

func writeText(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text))
}

// authKey is the request-context key of the authenticated resource.
type authKey struct{}

// authResource returns the resource the Auth hook gave this request, or "".
func authResource(r *http.Request) string {
	s, _ := r.Context().Value(authKey{}).(string)
	return s
}

// AuthResource is the resource the Options.Auth hook gave the request
// (Mastra's mastra__resourceId), or "" when there is none. Custom routes
// use it in place of any resource the request names.
func AuthResource(r *http.Request) string { return authResource(r) }

// ServeHTTP serves the API: CORS (every answer, and OPTIONS preflights
// with 204), authentication, the routes, and a recover guard that turns
// a handler's panic into 500 {"error":"Internal Server Error"} (logged
// with its stack) instead of a dropped connection.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.inflight.Add(1)
	defer s.inflight.Done()
	rw := &responseWriter{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.log.ErrorContext(r.Context(), "handler panicked", "method", r.Method, "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
			if !rw.wrote {
				wire.WriteJSON(rw, http.StatusInternalServerError, []byte(`{"error":"Internal Server Error"}`))
			}
		}
	}()
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	// Mastra's CORS headers, plus, on the MCP transport, the headers a
	// browser MCP client must send and read (Mastra omits them, so
	// browser clients fail against it).
	mcp := strings.HasPrefix(r.URL.Path, s.prefix+"/mcp/") && strings.HasSuffix(r.URL.Path, "/mcp")
	if mcp {
		h.Set("Access-Control-Expose-Headers", "Content-Length,X-Requested-With,Mcp-Session-Id,WWW-Authenticate")
	} else {
		h.Set("Access-Control-Expose-Headers", "Content-Length,X-Requested-With")
	}
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Max-Age", "3600")
		h.Set("Access-Control-Allow-Methods", "GET,POST,PUT,PATCH,DELETE,OPTIONS")
		allow := "Content-Type,Authorization,A2A-Version,x-mastra-client-type,x-mastra-dev-playground"
		if mcp {
			allow += ",Mcp-Session-Id,Mcp-Protocol-Version,Mcp-Method,Last-Event-ID"
		}
		h.Set("Access-Control-Allow-Headers", allow)
		h.Add("Vary", "Access-Control-Request-Headers")
		rw.WriteHeader(http.StatusNoContent)
		return
	}
	if s.servesStudio(r) {
		s.opts.Studio.ServeHTTP(rw, r)
		return
	}
	if s.servesWelcome(r) {
		writeWelcome(rw, s.prefix)
		return
	}
	if s.opts.BearerToken != "" || s.opts.Auth != nil {
		if !(r.Method == http.MethodGet && r.URL.Path == "/health") && !s.isPublic(r) {
			res, ok := s.authenticate(r)
			if !ok {
				wire.WriteJSON(rw, http.StatusUnauthorized, []byte(`{"error":"Unauthorized"}`))
				return
			}
			if res != "" {
				r = r.WithContext(context.WithValue(r.Context(), authKey{}, res))
			}
		}
	}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = http.MaxBytesReader(rw, r.Body, s.maxBody)
	}
	timeBody(rw, r, s.opts.BodyReadTimeout)
	if err := checkQueryIDs(r); err != nil {
		s.writeError(rw, r, err)
		return
	}
	s.mux.ServeHTTP(rw, r)
}

// isPublic tells whether r goes to a Public route.
func (s *Server) isPublic(r *http.Request) bool {
	if len(s.public) == 0 {
		return false
	}
	_, pattern := s.mux.Handler(r)
	return s.public[pattern]
}

// servesStudio tells whether r is the studio's: a GET or HEAD outside
// the API prefix, /health and the custom routes.
func (s *Server) servesStudio(r *http.Request) bool {
	return s.opts.Studio != nil && s.outsideAPI(r)
}

// outsideAPI tells whether r is a GET or HEAD outside the API prefix,
// /health and the custom routes (never when the API is at the root).
func (s *Server) outsideAPI(r *http.Request) bool {
	if s.prefix == "" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	p := r.URL.Path
	if p == s.prefix || strings.HasPrefix(p, s.prefix+"/") || p == "/health" {
		return false
	}
	if len(s.opts.Routes) > 0 {
		if _, pattern := s.mux.Handler(r); pattern != "/" {
			return false
		}
	}
	return true
}

// servesWelcome tells whether r gets the server's welcome page, as
// Mastra's server without its studio answers: a GET or HEAD outside the
// API (see outsideAPI) for a page, not a file (a path without a dot, or
// ending with .html), other than /swagger-ui and /openapi.json. Like
// Mastra's (whose authentication guards the API prefix only), the page
// is public.
func (s *Server) servesWelcome(r *http.Request) bool {
	if s.opts.Studio != nil || !s.outsideAPI(r) {
		return false
	}
	p := r.URL.Path
	if strings.HasPrefix(p, "/swagger-ui") || strings.HasPrefix(p, "/openapi.json") {
		return false
	}
	return !strings.Contains(p, ".") || strings.HasSuffix(p, ".html")
}

func (s *Server) authenticate(r *http.Request) (string, bool) {
	if s.opts.BearerToken != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(s.opts.BearerToken)) != 1 {
			return "", false
		}
	}
	if s.opts.Auth == nil {
		return "", true
	}
	res, err := s.opts.Auth(r)
	if err != nil {
		return "", false
	}
	return res, true
}

// responseWriter records whether the header was written (so the recover
// guard knows whether it can still answer 500). It passes Flush through
// and unwraps for http.ResponseController.
type responseWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *responseWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *responseWriter) Flush() {
	w.wrote = true
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// errShutdown refuses background work once Shutdown has begun.
var errShutdown = errorf(http.StatusServiceUnavailable, "Server is shutting down")

// goBackground runs fn in a goroutine owned by the server, with the
// server's background context (not the request's: it outlives the
// request, and Shutdown cancels it).
func (s *Server) goBackground(fn func(ctx context.Context)) error {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.bgClosed {
		return errShutdown
	}
	s.bgWG.Add(1)
	go func() {
		defer s.bgWG.Done()
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("background run panicked", "panic", p, "stack", string(debug.Stack()))
			}
		}()
		fn(s.bg)
	}()
	return nil
}

// Shutdown ends the server's background runs (send-tool-approval's
// resumed runs, workflows started or resumed without waiting): no new
// one starts; those running may finish until ctx is done, then their
// context is cancelled and Shutdown waits for them to return. It returns
// ctx's error when it had to cancel. Shutdown does not stop requests in
// flight; http.Server.Shutdown does (see [Serve]).
func (s *Server) Shutdown(ctx context.Context) error {
	s.bgMu.Lock()
	s.bgClosed = true
	s.bgMu.Unlock()
	done := make(chan struct{})
	go func() {
		s.bgWG.Wait()
		close(done)
	}()
	select {
	case <-done:
		s.bgCancel()
		return nil
	case <-ctx.Done():
		s.bgCancel()
		<-done
		return ctx.Err()
	}
}

// WaitRequests waits until no request is being served, or ctx ends (its
// error then). Serve calls it after cancelling the requests a shutdown
// left running: their agent runs save what they have and park, and the
// storage must stay open until they have.
func (s *Server) WaitRequests(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errorIsContext reports whether err is the request's own cancellation.
func errorIsContext(r *http.Request, err error) bool {
	return r.Context().Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// welcomeTemplate is the page a GET outside the API answers when the
// server has no studio (see servesWelcome): Mastra's server answers such
// requests with its "Mastra Server" page; this is gomastra's own,
// pointing at the same endpoints. {{prefix}} is the API prefix.
const welcomeTemplate = `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Mastra Server</title>
<style>
body { margin: 0; background: #0b0b0c; color: #e4e4e7; font: 15px/1.6 system-ui, -apple-system, sans-serif; }
main { max-width: 680px; margin: 0 auto; padding: 3rem 1.5rem; }
h1 { margin: 0 0 .25rem; color: #fff; font-size: 1.6rem; }
p { color: #8b8b93; margin: 0 0 2rem; }
h2 { font-size: .75rem; text-transform: uppercase; letter-spacing: .06em; color: #8b8b93; }
ul { list-style: none; padding: 0; margin: 0 0 2rem; border: 1px solid #27272a; border-radius: 8px; }
li { display: flex; justify-content: space-between; gap: 1rem; padding: .6rem 1rem; }
li + li { border-top: 1px solid #27272a; }
code { font: .8rem ui-monospace, Menlo, monospace; }
.m { display: inline-block; width: 3.5rem; color: #4ade80; }
.post { color: #60a5fa; }
span.d { color: #8b8b93; font-size: .8rem; }
a { color: #a1a1aa; }
</style>
</head>
<body>
<main>
<h1>Mastra Server</h1>
<p>Your server is running. Its API is under <code>{{prefix}}</code>.</p>
<h2>Endpoints</h2>
<ul>
<li><code><span class="m">GET</span>/health</code><span class="d">Health check</span></li>
<li><code><span class="m">GET</span>{{prefix}}/agents</code><span class="d">List agents</span></li>
<li><code><span class="m post">POST</span>{{prefix}}/agents/:agentId/generate</code><span class="d">Generate a response</span></li>
<li><code><span class="m post">POST</span>{{prefix}}/agents/:agentId/stream</code><span class="d">Stream a response</span></li>
<li><code><span class="m">GET</span>{{prefix}}/workflows</code><span class="d">List workflows</span></li>
<li><code><span class="m post">POST</span>{{prefix}}/workflows/:workflowId/start-async</code><span class="d">Run a workflow</span></li>
<li><code><span class="m">GET</span>{{prefix}}/tools</code><span class="d">List tools</span></li>
<li><code><span class="m post">POST</span>{{prefix}}/tools/:toolId/execute</code><span class="d">Execute a tool</span></li>
</ul>
<h2>Learn more</h2>
<p><a href="https://mastra.ai/docs" rel="noopener noreferrer">Mastra documentation</a></p>
</main>
</body>
</html>
`

// writeWelcome answers the welcome page (200, text/html, as Mastra's).
func writeWelcome(w http.ResponseWriter, prefix string) {
	page := strings.ReplaceAll(welcomeTemplate, "{{prefix}}", html.EscapeString(prefix))
	h := w.Header()
	h.Set("Content-Type", "text/html")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(page))
}
