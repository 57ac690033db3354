package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CompletionRequest is a client's completion/complete request: the prompt
// argument or resource-template variable being typed, and what was typed
// so far.
type CompletionRequest struct {
	// Prompt names the prompt (a "ref/prompt" reference) or URITemplate
	// the resource template ("ref/resource"); exactly one is set.
	Prompt, URITemplate string
	// Argument is the argument or template variable being completed,
	// Value what the user typed so far.
	Argument, Value string
	// Resolved holds arguments already filled in, by name.
	Resolved map[string]string
}

// CompleteFunc suggests values for a prompt argument or a resource
// template variable, best first. Its error's text is sent to the client.
type CompleteFunc func(ctx context.Context, req CompletionRequest) ([]string, error)

// maxCompletions is how many values one answer carries (the protocol's
// limit); the rest are counted in total and flagged with hasMore.
const maxCompletions = 100

// completionHandler adapts Config.Complete to the SDK's handler (which has
// checked the request's ref and argument).
func (s *Server) completionHandler(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	cr := CompletionRequest{Argument: p.Argument.Name, Value: p.Argument.Value}
	switch p.Ref.Type {
	case "ref/prompt":
		cr.Prompt = p.Ref.Name
	case "ref/resource":
		cr.URITemplate = p.Ref.URI
	default:
		return nil, invalidParams("Unsupported completion reference type: " + p.Ref.Type)
	}
	if p.Context != nil {
		cr.Resolved = p.Context.Arguments
	}
	values, err := s.cfg.Complete(ctx, cr)
	if err != nil {
		return nil, err
	}
	details := mcp.CompletionResultDetails{Values: values, Total: len(values)}
	if details.Values == nil {
		details.Values = []string{}
	}
	if len(values) > maxCompletions {
		details.Values, details.HasMore = values[:maxCompletions], true
	}
	return &mcp.CompleteResult{Completion: details}, nil
}
