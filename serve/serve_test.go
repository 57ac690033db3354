package serve_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

type in struct {
	A int `json:"a"`
	B int `json:"b"`
}
type out struct {
	Sum int `json:"sum"`
}

func TestRunServesTheAppOnItsStorageAndStops(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "app", "mastra.db")
	var built storage.Store
	build := func(_ context.Context, env serve.Env) (*mastra.Mastra, error) {
		built = env.Storage
		add := tools.New(tools.Config[in, out]{ID: "add", Execute: func(_ tools.Context, v in) (out, error) { return out{Sum: v.A + v.B}, nil }})
		return mastra.New(mastra.Config{Tools: tools.Set{"add": add}}), nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: dbPath, Token: "s3cret", Ready: func(a string) { ready <- a }},
			func(string) string { return "" }, slog.New(slog.DiscardHandler), build)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	post := func(token string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/tools/add/execute", strings.NewReader(`{"data":{"a":2,"b":3}}`))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	if res, body := post(""); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d %s", res.StatusCode, body)
	}
	if res, body := post("s3cret"); res.StatusCode != 200 || body != `{"sum":5}` {
		t.Errorf("with the token: %d %s", res.StatusCode, body)
	}
	// The dev studio is served at "/" (without the token: it is public
	// assets, whose API calls authenticate).
	if res, err := http.Get("http://" + addr + "/"); err != nil || res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("studio: %v %+v", err, res)
	} else {
		res.Body.Close()
	}
	// The AI SDK chat route is mounted: an unknown agent is its JSON 404,
	// not the router's plain-text one.
	req, _ := http.NewRequest("POST", "http://"+addr+"/chat/nobody", strings.NewReader(`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer s3cret")
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Error(err)
	} else {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("chat route: %d %s", res.StatusCode, b)
		}
	}
	if built == nil {
		t.Fatal("the app got no storage")
	}
	if _, _, err := built.GetThreadState(context.Background(), "t", "x"); err != nil {
		t.Errorf("the SQLite store does not work: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("stop: %v", err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
		t.Fatal("Run did not stop")
	}
}

func TestCommandFlags(t *testing.T) {
	var stderr strings.Builder
	code := serve.Command([]string{"-port", "not-a-port", "-storage", ":memory:"}, func(string) string { return "" }, &stderr,
		func(context.Context, serve.Env) (*mastra.Mastra, error) { return mastra.New(mastra.Config{}), nil })
	if code != 1 || !strings.Contains(stderr.String(), "not-a-port") {
		t.Errorf("a bad port: %d %q", code, stderr.String())
	}
	if code := serve.Command([]string{"-nope"}, func(string) string { return "" }, &stderr, nil); code != 2 {
		t.Errorf("a bad flag: %d", code)
	}
}
