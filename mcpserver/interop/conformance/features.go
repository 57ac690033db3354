package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/tools"
)

// The resources, prompts and completions the suite's scenarios read,
// served through mcpserver.Resources, Prompts and Complete.

const (
	staticTextURI   = "test://static-text"
	staticBinaryURI = "test://static-binary"
	watchedURI      = "test://watched-resource"
	templateURI     = "test://template/{id}/data"

	// testPNG is a 1x1 PNG image.
	testPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)

func resources() *mcpserver.Resources {
	return &mcpserver.Resources{
		List: func(context.Context) ([]*mcp.Resource, error) {
			return []*mcp.Resource{
				{URI: staticTextURI, Name: "static-text", Description: "A static text resource for testing", MIMEType: "text/plain"},
				{URI: staticBinaryURI, Name: "static-binary", Description: "A static binary resource (image) for testing", MIMEType: "image/png"},
				{URI: watchedURI, Name: "watched-resource", Description: "A resource whose changes subscribers hear of", MIMEType: "text/plain"},
			}, nil
		},
		Templates: func(context.Context) ([]*mcp.ResourceTemplate, error) {
			return []*mcp.ResourceTemplate{{URITemplate: templateURI, Name: "template",
				Description: "A resource template with parameter substitution", MIMEType: "application/json"}}, nil
		},
		Read: readResource,
	}
}

func readResource(_ context.Context, uri string) ([]*mcp.ResourceContents, error) {
	switch uri {
	case staticTextURI:
		return []*mcp.ResourceContents{{Text: "This is the content of the static text resource."}}, nil
	case staticBinaryURI:
		png, err := base64.StdEncoding.DecodeString(testPNG)
		return []*mcp.ResourceContents{{Blob: png}}, err
	case watchedURI:
		return []*mcp.ResourceContents{{Text: "Watched resource content"}}, nil
	}
	if id, ok := strings.CutPrefix(uri, "test://template/"); ok {
		if id, ok = strings.CutSuffix(id, "/data"); ok && id != "" {
			data, err := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
			return []*mcp.ResourceContents{{Text: string(data)}}, err
		}
	}
	return nil, mcpserver.ErrResourceNotFound
}

// promptCatalog is the prompt list: the fixed prompts, and those
// test_trigger_prompt_change adds at run time (announced with
// NotifyPromptListChanged).
type promptCatalog struct {
	mu    sync.Mutex
	added []string
	srv   *mcpserver.Server
}

func (c *promptCatalog) prompts() *mcpserver.Prompts {
	return &mcpserver.Prompts{List: c.list, Messages: c.messages,
		ResumeSchema: `{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`}
}

func (c *promptCatalog) list(context.Context) ([]*mcp.Prompt, error) {
	list := []*mcp.Prompt{
		{Name: "test_simple_prompt", Title: "Simple Test Prompt", Description: "A simple prompt without arguments"},
		{Name: "test_prompt_with_arguments", Title: "Prompt With Arguments", Description: "A prompt with required arguments",
			Arguments: []*mcp.PromptArgument{
				{Name: "arg1", Description: "First test argument", Required: true},
				{Name: "arg2", Description: "Second test argument", Required: true},
			}},
		{Name: "test_prompt_with_embedded_resource", Title: "Prompt With Embedded Resource", Description: "A prompt that includes an embedded resource",
			Arguments: []*mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
		{Name: "test_prompt_with_image", Title: "Prompt With Image", Description: "A prompt that includes image content"},
		{Name: "test_input_required_result_prompt", Description: "Asks for context before building the prompt (SEP-2322)"},
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, name := range c.added {
		list = append(list, &mcp.Prompt{Name: name, Description: "A prompt added at run time"})
	}
	return list, nil
}

// trigger adds a prompt and tells clients the list changed.
func (c *promptCatalog) trigger(ctx tools.Context, _ map[string]any) (any, error) {
	c.mu.Lock()
	name := fmt.Sprintf("test_dynamic_prompt_%d", len(c.added)+1)
	c.added = append(c.added, name)
	c.mu.Unlock()
	if err := c.srv.NotifyPromptListChanged(ctx); err != nil {
		return nil, err
	}
	return "Added prompt " + name, nil
}

func (c *promptCatalog) messages(ctx context.Context, req *mcpserver.PromptRequest) ([]*mcp.PromptMessage, error) {
	if strings.HasPrefix(req.Prompt.Name, "test_dynamic_prompt_") {
		return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "This prompt was added at run time."}}}, nil
	}
	return promptMessages(ctx, req)
}

func promptMessages(_ context.Context, req *mcpserver.PromptRequest) ([]*mcp.PromptMessage, error) {
	user := func(c mcp.Content) *mcp.PromptMessage { return &mcp.PromptMessage{Role: "user", Content: c} }
	text := func(s string) *mcp.PromptMessage { return user(&mcp.TextContent{Text: s}) }
	switch req.Prompt.Name {
	case "test_simple_prompt":
		return []*mcp.PromptMessage{text("This is a simple prompt for testing.")}, nil
	case "test_prompt_with_arguments":
		return []*mcp.PromptMessage{text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", req.Args["arg1"], req.Args["arg2"]))}, nil
	case "test_prompt_with_embedded_resource":
		return []*mcp.PromptMessage{
			user(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: req.Args["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing."}}),
			text("Please process the embedded resource above."),
		}, nil
	case "test_prompt_with_image":
		png, err := base64.StdEncoding.DecodeString(testPNG)
		if err != nil {
			return nil, err
		}
		return []*mcp.PromptMessage{user(&mcp.ImageContent{Data: png, MIMEType: "image/png"}), text("Please analyze the image above.")}, nil
	case "test_input_required_result_prompt":
		if req.ResumeData == nil {
			return nil, req.Suspend(mcpserver.Question{Message: "What context should the prompt use?"})
		}
		var answer struct {
			Context string `json:"context"`
		}
		if err := json.Unmarshal(req.ResumeData, &answer); err != nil {
			return nil, err
		}
		return []*mcp.PromptMessage{text("Context: " + answer.Context)}, nil
	}
	return nil, fmt.Errorf("no messages for prompt %q", req.Prompt.Name)
}

// complete suggests the known values of test_prompt_with_arguments'
// arguments that start with what was typed.
func complete(_ context.Context, req mcpserver.CompletionRequest) ([]string, error) {
	if req.Prompt != "test_prompt_with_arguments" {
		return nil, nil
	}
	var out []string
	for _, v := range []string{"test", "test-value", "other-value"} {
		if strings.HasPrefix(v, req.Value) {
			out = append(out, v)
		}
	}
	return out, nil
}
