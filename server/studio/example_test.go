package studio_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/studio"
)

// The studio is mounted beside the API: the server hands it every GET
// outside /api, so the page, its assets and its deep links are served,
// and the page calls the API of the same server.
func ExampleHandler() {
	m := mastra.New(mastra.Config{})
	srv := server.New(m, server.Options{Studio: studio.Handler(studio.Options{Title: "My agents"})})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	for _, p := range []string{"/", "/agents/weather-agent", "/assets/studio.css", "/assets/missing.js", "/api/tools"} {
		resp, err := ts.Client().Get(ts.URL + p)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(p, resp.StatusCode, resp.Header.Get("Content-Type"), strings.Contains(string(b), "<title>My agents</title>"))
	}
	// Output:
	// / 200 text/html; charset=utf-8 true
	// /agents/weather-agent 200 text/html; charset=utf-8 true
	// /assets/studio.css 200 text/css; charset=utf-8 false
	// /assets/missing.js 404 text/plain; charset=utf-8 false
	// /api/tools 200 application/json false
}
