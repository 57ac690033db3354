package mcpserver_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/mcpserver"
)

// exampleClient connects an MCP client to srv in memory.
func exampleClient(srv *mcpserver.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	return exampleClientAt(srv, opts, "")
}

// exampleClientAt connects an MCP client speaking protocol version
// (empty: the newest) to srv in memory.
func exampleClientAt(srv *mcpserver.Server, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCPServer().Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1.0.0"}, opts).Connect(ctx, ct, so)
	if err != nil {
		log.Fatal(err)
	}
	return cs
}

// A server offering documents as resources: one listed, the others
// through a template.
func ExampleResources() {
	docs := map[string]string{"docs://readme": "# Readme", "docs://guide": "# Guide"}
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Docs", Version: "1.0.0", RequestStateKey: []byte(strings.Repeat("k", 32)),
		Resources: &mcpserver.Resources{
			List: func(context.Context) ([]*mcp.Resource, error) {
				return []*mcp.Resource{{URI: "docs://readme", Name: "readme", MIMEType: "text/markdown"}}, nil
			},
			Templates: func(context.Context) ([]*mcp.ResourceTemplate, error) {
				return []*mcp.ResourceTemplate{{URITemplate: "docs://{name}", Name: "doc", MIMEType: "text/markdown"}}, nil
			},
			Read: func(_ context.Context, uri string) ([]*mcp.ResourceContents, error) {
				text, ok := docs[uri]
				if !ok {
					return nil, mcpserver.ErrResourceNotFound
				}
				return []*mcp.ResourceContents{{Text: text}}, nil
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	cs := exampleClient(srv, nil)
	defer cs.Close()
	ctx := context.Background()
	for _, uri := range []string{"docs://readme", "docs://guide", "docs://missing"} {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			fmt.Println(uri, "error:", err)
			continue
		}
		fmt.Println(uri, res.Contents[0].MIMEType, res.Contents[0].Text)
	}
	// Output:
	// docs://readme text/markdown # Readme
	// docs://guide text/markdown # Guide
	// docs://missing error: calling "resources/read": Resource not found
}

// Clients subscribed to a resource hear when it changes (Mastra's
// server.resources.notifyUpdated); here a client of protocol 2025-11-25,
// which subscribes with resources/subscribe.
func ExampleServer_NotifyResourceUpdated() {
	config := "theme=light"
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Config", Version: "1.0.0", RequestStateKey: []byte(strings.Repeat("k", 32)),
		Resources: &mcpserver.Resources{
			List: func(context.Context) ([]*mcp.Resource, error) {
				return []*mcp.Resource{{URI: "config://app", Name: "app"}}, nil
			},
			Read: func(context.Context, string) ([]*mcp.ResourceContents, error) {
				return []*mcp.ResourceContents{{Text: config}}, nil
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	updated := make(chan string, 1)
	cs := exampleClientAt(srv, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	}, "2025-11-25")
	defer cs.Close()
	ctx := context.Background()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "config://app"}); err != nil {
		log.Fatal(err)
	}
	config = "theme=dark"
	if err := srv.NotifyResourceUpdated(ctx, "config://app"); err != nil {
		log.Fatal(err)
	}
	uri := <-updated
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(uri, res.Contents[0].Text)
	// Output: config://app theme=dark
}

// After the app's resource list changed, NotifyResourceListChanged lists
// again and tells clients (Mastra's server.resources.notifyListChanged).
func ExampleServer_NotifyResourceListChanged() {
	uris := []string{"notes://1"}
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Notes", Version: "1.0.0", RequestStateKey: []byte(strings.Repeat("k", 32)),
		Resources: &mcpserver.Resources{
			List: func(context.Context) ([]*mcp.Resource, error) {
				var list []*mcp.Resource
				for _, u := range uris {
					list = append(list, &mcp.Resource{URI: u, Name: u})
				}
				return list, nil
			},
			Read: func(_ context.Context, uri string) ([]*mcp.ResourceContents, error) {
				return []*mcp.ResourceContents{{Text: "note " + uri}}, nil
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	uris = append(uris, "notes://2")
	if err := srv.NotifyResourceListChanged(ctx); err != nil {
		log.Fatal(err)
	}
	cs := exampleClient(srv, nil)
	defer cs.Close()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range list.Resources {
		fmt.Println(r.URI)
	}
	// Output:
	// notes://1
	// notes://2
}
