package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

type AddIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type AddOut struct {
	Sum int `json:"sum"`
}

func registry() *mastra.Mastra {
	add := tools.New(tools.Config[AddIn, AddOut]{ID: "add", Description: "Add two integers",
		Execute: func(_ tools.Context, in AddIn) (AddOut, error) { return AddOut{Sum: in.A + in.B}, nil }})
	return mastra.New(mastra.Config{Tools: map[string]*tools.Tool{"add": add}})
}

// The handler serves Mastra's API: here a tool is executed as
// @mastra/client-js's tool.execute({data}) and `mastra api tool execute`
// do it.
func ExampleNew() {
	srv := server.New(registry(), server.Options{})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Shutdown(context.Background())

	resp, err := http.Post(ts.URL+"/api/tools/add/execute", "application/json", strings.NewReader(`{"data":{"a":2,"b":3}}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	// Output:
	// 200 {"sum":5}
}

// Serve listens (by default on 127.0.0.1:4111, or $HOST:$PORT) until its
// context ends, then shuts down gracefully.
func ExampleServe() {
	ctx, stop := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- server.Serve(ctx, registry(), server.ServeOptions{Listener: ln, Ready: func(addr net.Addr) {
			resp, err := http.Get("http://" + addr.String() + "/health")
			if err == nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				fmt.Println(string(body))
			}
			stop()
		}})
	}()
	fmt.Println(<-done)
	// Output:
	// {"success":true}
	// <nil>
}
