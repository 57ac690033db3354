package aisdk_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
)

// A resumable chat route: its runs outlive the request that started
// them, and GET <route>/<chat id>/stream (the URL useChat({resume: true})
// reconnects to) streams a chat's running answer from its start, or
// answers 204 No Content when the chat has none.
func ExampleChatRoutes() {
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"greeter": greeter()}})
	routes := aisdk.ChatRoutes(m, aisdk.ChatRouteOptions{Resumable: true})
	for _, rt := range routes {
		fmt.Println(rt.Method, rt.Path)
	}
	srv := server.New(m, server.Options{Routes: routes})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Shutdown(context.Background())

	resp, err := http.Get(ts.URL + "/chat/greeter/chat-1/stream")
	if err != nil {
		panic(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	fmt.Println("before any message:", resp.StatusCode)

	body := `{"id":"chat-1","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"Hi!"}]}]}`
	resp, err = http.Post(ts.URL+"/chat/greeter", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println("answer ends with [DONE]:", strings.HasSuffix(string(b), "data: [DONE]\n\n"))
	// Output:
	// POST /chat/{agentId}
	// GET /chat/{agentId}/{chatId}/stream
	// before any message: 204
	// answer ends with [DONE]: true
}
