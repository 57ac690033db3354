package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// docStore is an app's documents served as resources: a list that can
// change, and a template over them.
type docStore struct {
	mu   sync.Mutex
	docs map[string]string
}

func (d *docStore) set(uri, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.docs[uri] = text
}

func (d *docStore) resources() *Resources {
	return &Resources{
		List: func(context.Context) ([]*mcp.Resource, error) {
			d.mu.Lock()
			defer d.mu.Unlock()
			var list []*mcp.Resource
			for uri := range d.docs {
				list = append(list, &mcp.Resource{URI: uri, Name: strings.TrimPrefix(uri, "doc://"), MIMEType: "text/markdown"})
			}
			return list, nil
		},
		Templates: func(context.Context) ([]*mcp.ResourceTemplate, error) {
			return []*mcp.ResourceTemplate{{URITemplate: "doc://{name}", Name: "doc", MIMEType: "text/markdown"}}, nil
		},
		Read: func(_ context.Context, uri string) ([]*mcp.ResourceContents, error) {
			d.mu.Lock()
			defer d.mu.Unlock()
			if uri == "doc://logo" {
				return []*mcp.ResourceContents{{Blob: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"}}, nil
			}
			if uri == "doc://broken" {
				return nil, errors.New("disk on fire")
			}
			text, ok := d.docs[uri]
			if !ok {
				return nil, fmt.Errorf("no %s: %w", uri, ErrResourceNotFound)
			}
			return []*mcp.ResourceContents{{Text: text}}, nil
		},
	}
}

func resourceServer(t testing.TB, d *docStore) *Server {
	t.Helper()
	s, err := New(Config{Name: "Docs", Version: "1.0.0", Resources: d.resources(), Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Resources are listed, read (text, binary, through a template, with the
// listed MIME type filled in), and unknown or failing reads are protocol
// errors.
func TestResources(t *testing.T) {
	ctx := context.Background()
	d := &docStore{docs: map[string]string{"doc://readme": "# Hello"}}
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			cs := connect(t, resourceServer(t, d), clientOptions{legacy: legacy})
			caps := cs.InitializeResult().Capabilities
			if caps.Resources == nil || !caps.Resources.Subscribe || !caps.Resources.ListChanged {
				t.Fatalf("resources capability %+v", caps.Resources)
			}
			list, err := cs.ListResources(ctx, nil)
			if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != "doc://readme" {
				t.Fatalf("list %+v, %v", list, err)
			}
			templates, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "doc://{name}" {
				t.Fatalf("templates %+v, %v", templates, err)
			}
			got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "doc://readme"})
			if err != nil || len(got.Contents) != 1 {
				t.Fatalf("read %+v, %v", got, err)
			}
			if c := got.Contents[0]; c.Text != "# Hello" || c.URI != "doc://readme" || c.MIMEType != "text/markdown" {
				t.Errorf("contents %+v", c)
			}
			logo, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "doc://logo"})
			if err != nil || string(logo.Contents[0].Blob) != "\x89PNG" || logo.Contents[0].Text != "" || logo.Contents[0].MIMEType != "image/png" {
				t.Fatalf("binary %+v, %v", logo, err)
			}
			for uri, code := range map[string]int64{"doc://missing": jsonrpc.CodeInvalidParams, "other://x": jsonrpc.CodeInvalidParams, "doc://broken": 0} {
				_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
				var rpc *jsonrpc.Error
				if err == nil || (code != 0 && (!errors.As(err, &rpc) || rpc.Code != code)) {
					t.Errorf("read %s: %v, want code %d", uri, err, code)
				}
			}
		})
	}
}

// NotifyResourceListChanged lists again: new resources appear, removed
// ones disappear (and cannot be read), and clients hear of the change.
func TestResourceListChanged(t *testing.T) {
	ctx := context.Background()
	d := &docStore{docs: map[string]string{"doc://a": "A", "doc://b": "B"}}
	s := resourceServer(t, d)
	changed := make(chan struct{}, 4)
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.MCPServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	d.mu.Lock()
	delete(d.docs, "doc://a")
	d.docs["doc://c"] = "C"
	d.mu.Unlock()
	if err := s.NotifyResourceListChanged(ctx); err != nil {
		t.Fatal(err)
	}
	<-changed
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	if strings.Join(uris, ",") != "doc://b,doc://c" {
		t.Errorf("after the change: %v", uris)
	}
}

// A failing listing fails New and NotifyResourceListChanged (keeping the
// previous list); a Resources without Read or with a bad URI fails New.
func TestResourceConfigErrors(t *testing.T) {
	fail := true
	r := &Resources{
		List: func(context.Context) ([]*mcp.Resource, error) {
			if fail {
				return nil, errors.New("backend down")
			}
			return []*mcp.Resource{{URI: "doc://a"}}, nil
		},
		Read: func(context.Context, string) ([]*mcp.ResourceContents, error) { return nil, nil },
	}
	if _, err := New(Config{Name: "x", Version: "1", Resources: r, Logger: discardLogger()}); err == nil || !strings.Contains(err.Error(), "backend down") {
		t.Errorf("failing List: %v", err)
	}
	fail = false
	s, err := New(Config{Name: "x", Version: "1", Resources: r, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	fail = true
	if err := s.NotifyResourceListChanged(context.Background()); err == nil {
		t.Error("NotifyResourceListChanged with a failing List: no error")
	}
	cs := connect(t, s, clientOptions{})
	if list, err := cs.ListResources(context.Background(), nil); err != nil || len(list.Resources) != 1 {
		t.Errorf("previous list kept: %+v, %v", list, err)
	}
	for name, bad := range map[string]*Resources{
		"no Read": {List: r.List},
		"bad URI": {List: func(context.Context) ([]*mcp.Resource, error) { return []*mcp.Resource{{URI: "%zz"}}, nil }, Read: r.Read},
		"no URI":  {List: func(context.Context) ([]*mcp.Resource, error) { return []*mcp.Resource{{Name: "x"}}, nil }, Read: r.Read},
	} {
		if _, err := New(Config{Name: "x", Version: "1", Resources: bad, Logger: discardLogger()}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A client subscribed to a resource hears of its updates until it
// unsubscribes; others hear nothing.
func TestResourceSubscriptions(t *testing.T) {
	ctx := context.Background()
	d := &docStore{docs: map[string]string{"doc://a": "A", "doc://b": "B"}}
	s := resourceServer(t, d)
	updated := make(chan string, 4)
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.MCPServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	})
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "doc://a"}); err != nil {
		t.Fatal(err)
	}
	d.set("doc://b", "B2")
	if err := s.NotifyResourceUpdated(ctx, "doc://b"); err != nil {
		t.Fatal(err)
	}
	d.set("doc://a", "A2")
	if err := s.NotifyResourceUpdated(ctx, "doc://a"); err != nil {
		t.Fatal(err)
	}
	if uri := <-updated; uri != "doc://a" {
		t.Errorf("first update heard: %s, want doc://a (not subscribed to doc://b)", uri)
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "doc://a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.NotifyResourceUpdated(ctx, "doc://a"); err != nil {
		t.Fatal(err)
	}
	// A round trip after the notification: had it been sent, it would
	// have arrived first.
	if _, err := cs.ListResources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		t.Errorf("update heard after unsubscribing: %s", uri)
	default:
	}
	if err := s.NotifyResourceUpdated(ctx, ""); err == nil {
		t.Error("empty URI: no error")
	}
}

// A server without resources declares no resources capability.
func TestNoResourcesCapability(t *testing.T) {
	s, err := New(Config{Name: "x", Version: "1", Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	caps := connect(t, s, clientOptions{}).InitializeResult().Capabilities
	if caps.Resources != nil || caps.Prompts != nil || caps.Completions != nil {
		t.Errorf("capabilities %+v", caps)
	}
	if err := s.NotifyResourceListChanged(context.Background()); err != nil {
		t.Error(err)
	}
}
