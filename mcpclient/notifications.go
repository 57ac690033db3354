package mcpclient

import (
	"context"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// ResourceUpdate is a server's notice that a subscribed resource changed
// (notifications/resources/updated). Read it again with ReadResource.
type ResourceUpdate struct {
	// Server is the configured name of the server.
	Server string
	// URI is the resource that changed; it may be a sub-resource of the
	// subscribed one.
	URI string
}

// serverEvents is what the application registered for one server's
// notifications and elicitations, the server's cached tool listing, and
// its tool calls that can suspend on an elicitation.
type serverEvents struct {
	mu               sync.Mutex
	elicit           ElicitationHandler
	toolsChanged     []func()
	resourcesChanged []func()
	promptsChanged   []func()
	resourceUpdated  []func(ResourceUpdate)

	// The listing ToolsFunc reuses until the server says its tools changed
	// or the connection it came from is gone.
	cachedTools tools.Set
	cachedFrom  *connection
	toolsGen    uint64 // counts tool list changes

	calls   map[string]*pendingCall // by tool call key
	tracked map[uint64]string       // running calls that cannot suspend: tool names
	seq     uint64
}

func newServerEvents() *serverEvents {
	return &serverEvents{calls: map[string]*pendingCall{}, tracked: map[uint64]string{}}
}

// addClientOptions installs the handlers of this file's notifications and
// of elicitation on the SDK client options of s.
func (s *server) addClientOptions(o *mcp.ClientOptions) {
	o.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
		s.events.mu.Lock()
		s.events.cachedTools, s.events.cachedFrom = nil, nil
		s.events.toolsGen++
		s.events.mu.Unlock()
		s.logger.Debug("MCP server tool list changed", "server", s.name)
		notify(s.events, func(e *serverEvents) []func() { return e.toolsChanged })
	}
	o.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) {
		notify(s.events, func(e *serverEvents) []func() { return e.resourcesChanged })
	}
	o.PromptListChangedHandler = func(context.Context, *mcp.PromptListChangedRequest) {
		notify(s.events, func(e *serverEvents) []func() { return e.promptsChanged })
	}
	o.ResourceUpdatedHandler = func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		u := ResourceUpdate{Server: s.name, URI: req.Params.URI}
		s.events.mu.Lock()
		fns := append([]func(ResourceUpdate){}, s.events.resourceUpdated...)
		s.events.mu.Unlock()
		for _, fn := range fns {
			fn(u)
		}
	}
	if !s.cfg.DisableElicitation {
		o.ElicitationHandler = s.onElicit
	}
	// Multi-round-trip input requests are answered by callRounds and
	// inputRounds, so that a suspended call can be retried after a restart.
	o.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
}

// notify calls the handlers list picks, outside the lock.
func notify(e *serverEvents, list func(*serverEvents) []func()) {
	e.mu.Lock()
	fns := append([]func(){}, list(e)...)
	e.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// elicitationHandler is the handler registered at run time, else cfg's.
func (e *serverEvents) elicitationHandler(cfg ElicitationHandler) ElicitationHandler {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.elicit != nil {
		return e.elicit
	}
	return cfg
}

// OnToolListChanged registers fn to run when the server says its tool list
// changed (notifications/tools/list_changed). ListTools and ServerTools
// always list afresh; ToolsFunc drops its cached listing before fn runs.
// Handlers run on the connection's goroutine, in order: keep them short.
func (c *Client) OnToolListChanged(server string, fn func()) error {
	return c.onEvent(server, fn == nil, func(e *serverEvents) { e.toolsChanged = append(e.toolsChanged, fn) })
}

// OnResourceListChanged registers fn to run when the server says its
// resource list changed (Mastra's client.resources.onListChanged).
func (c *Client) OnResourceListChanged(server string, fn func()) error {
	return c.onEvent(server, fn == nil, func(e *serverEvents) { e.resourcesChanged = append(e.resourcesChanged, fn) })
}

// OnPromptListChanged registers fn to run when the server says its prompt
// list changed (Mastra's client.prompts.onListChanged).
func (c *Client) OnPromptListChanged(server string, fn func()) error {
	return c.onEvent(server, fn == nil, func(e *serverEvents) { e.promptsChanged = append(e.promptsChanged, fn) })
}

// OnResourceUpdated registers fn to run when a resource subscribed to with
// SubscribeResource changes (Mastra's client.resources.onUpdated).
func (c *Client) OnResourceUpdated(server string, fn func(ResourceUpdate)) error {
	return c.onEvent(server, fn == nil, func(e *serverEvents) { e.resourceUpdated = append(e.resourceUpdated, fn) })
}

// OnElicitationRequest makes h answer the server's elicitation requests
// from now on, in place of ServerConfig.ElicitationHandler and of
// suspending the calling tool (Mastra's client.elicitation.onRequest).
// A nil h goes back to those. It fails for a server configured with
// DisableElicitation.
func (c *Client) OnElicitationRequest(server string, h ElicitationHandler) error {
	s, err := c.server(server)
	if err != nil {
		return err
	}
	if s.cfg.DisableElicitation {
		return errElicitationDisabled(server)
	}
	s.events.mu.Lock()
	s.events.elicit = h
	s.events.mu.Unlock()
	return nil
}

// onEvent registers a handler with add, refusing a nil one.
func (c *Client) onEvent(server string, isNil bool, add func(*serverEvents)) error {
	s, err := c.server(server)
	if err != nil {
		return err
	}
	if isNil {
		return errors.New("mcpclient: the notification handler is nil")
	}
	s.events.mu.Lock()
	add(s.events)
	s.events.mu.Unlock()
	return nil
}
