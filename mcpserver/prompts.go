package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompts are what a server offers as MCP prompts: Mastra's MCPServer
// `prompts` option ({listPrompts, getPromptMessages, resumeSchema}). A
// server with Prompts declares the prompts capability (with listChanged)
// even when the list is empty.
type Prompts struct {
	// List returns the prompts (Mastra's listPrompts). Required. It is
	// called when the server is built and again by
	// NotifyPromptListChanged; prompts/list answers from that list.
	List func(ctx context.Context) ([]*mcp.Prompt, error)
	// Messages builds a listed prompt's messages (Mastra's
	// getPromptMessages). Required. It runs only for a listed prompt
	// whose required arguments are all present. It may ask the client for
	// input first: `return nil, req.Suspend(payload)`; it then runs again
	// with req.ResumeData set to the answer. Its error's text is sent to
	// the client, so keep secrets out of it.
	Messages func(ctx context.Context, req *PromptRequest) ([]*mcp.PromptMessage, error)
	// ResumeSchema is the form (a JSON Schema of an object whose
	// properties are strings, numbers, booleans or enums, as text) a
	// suspended prompt asks the client to fill in, and what the answer
	// must satisfy. Empty: an empty form.
	ResumeSchema string
}

// PromptRequest is one prompts/get for a listed prompt.
type PromptRequest struct {
	// Prompt is the listed prompt; Args the client's arguments.
	Prompt *mcp.Prompt
	Args   map[string]string
	// ResumeData is the client's answer to the question this prompt
	// suspended with (nil on the first round), SuspendPayload the payload
	// it suspended with.
	ResumeData, SuspendPayload json.RawMessage

	suspended json.RawMessage
}

// ErrPromptSuspended is what PromptRequest.Suspend returns: the prompt
// waits for the client's answer.
var ErrPromptSuspended = errors.New("mcpserver: prompt suspended")

// Suspend asks the client for input before the prompt is built, as a
// tool's ctx.Suspend does: payload's "message" (a string) is the
// question, and Prompts.ResumeSchema the form. The idiom is
// `return nil, req.Suspend(payload)`.
func (r *PromptRequest) Suspend(payload any) error {
	raw, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("mcpserver: prompt suspend payload: %w", err)
	}
	r.suspended = raw
	return ErrPromptSuspended
}

// promptSet is the prompts currently registered on the SDK server.
type promptSet struct {
	mu     sync.Mutex
	byName map[string]*mcp.Prompt
	form   json.RawMessage
}

// checkPrompts reports a Prompts missing a required function or with a
// resume schema that is no form, and returns the form.
func checkPrompts(p *Prompts) (json.RawMessage, error) {
	if p.List == nil || p.Messages == nil {
		return nil, configError("Prompts needs List and Messages")
	}
	if p.ResumeSchema == "" {
		return emptyForm, nil
	}
	form, err := formSchema([]byte(p.ResumeSchema))
	if err == nil {
		err = checkForm(form)
	}
	if err != nil {
		return nil, configError("Prompts.ResumeSchema cannot be presented as an input request: %v", err)
	}
	return form.AppendJS(nil), nil
}

// loadPrompts lists the prompts and registers them on the SDK server,
// removing those no longer listed. Registering replaces, so every listing
// notifies connected clients that the list changed.
func (s *Server) loadPrompts(ctx context.Context) error {
	list, err := s.cfg.Prompts.List(ctx)
	if err != nil {
		return fmt.Errorf("mcpserver: listing prompts: %w", err)
	}
	byName := make(map[string]*mcp.Prompt, len(list))
	for _, p := range list {
		if p == nil || p.Name == "" {
			return configError("a listed prompt has no name")
		}
		byName[p.Name] = p
	}
	s.prompts.mu.Lock()
	defer s.prompts.mu.Unlock()
	var gone []string
	for name := range s.prompts.byName {
		if byName[name] == nil {
			gone = append(gone, name)
		}
	}
	for _, p := range list {
		s.sdk.AddPrompt(p, s.getPrompt)
	}
	s.sdk.RemovePrompts(gone...)
	s.prompts.byName = byName
	return nil
}

// listedPrompt is the listed prompt called name, or nil.
func (s *Server) listedPrompt(name string) *mcp.Prompt {
	s.prompts.mu.Lock()
	defer s.prompts.mu.Unlock()
	return s.prompts.byName[name]
}

// NotifyPromptListChanged lists the prompts again (Prompts.List) and
// tells connected clients that the list changed
// (notifications/prompts/list_changed; a subscriptions/listen stream on
// protocol 2026-07-28): Mastra's server.prompts.notifyListChanged(). It
// returns the listing's error, keeping the previous list, and is a no-op
// without Prompts.
func (s *Server) NotifyPromptListChanged(ctx context.Context) error {
	if s.cfg.Prompts == nil {
		return nil
	}
	return s.loadPrompts(ctx)
}
